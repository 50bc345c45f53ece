import Foundation

// `nuke`: see `CLI.help` and each command's `--help`.
let status = await CLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
