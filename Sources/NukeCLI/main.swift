print("nuke")
