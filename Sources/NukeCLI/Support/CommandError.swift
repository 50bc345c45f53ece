/// A command that could not do its work, described as a sentence for the user (e.g. "cannot write to /x: not a
/// directory"). Printed after `nuke: `; the process exits with ``ExitCode/failure``.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
