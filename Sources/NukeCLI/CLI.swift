import Foundation

/// The `nuke` tool: its commands and the top-level help.
enum CLI {
    /// The tool's version, printed by `nuke --version`.
    static let version = "0.1.0"

    static let commands: [(name: String, summary: String)] = [
        ("fetch", FetchCommand.summary),
        ("info", InfoCommand.summary),
        ("cache", CacheCommand.summary),
        ("demo", DemoCommand.summary),
        ("serve", ServeCommand.summary),
    ]

    static var help: String {
        let list = commands.map { "  " + $0.name.padding(toLength: 8, withPad: " ", startingAt: 0) + $0.summary }
        return """
            USAGE: nuke COMMAND [OPTIONS]

            The Nuke image pipeline on the command line.

            COMMANDS:
            \(list.joined(separator: "\n"))

            OPTIONS:
              --version   Print the version.
              -h, --help  Show this help.

            Run `nuke COMMAND --help` for a command's options.
            """
    }

    /// Runs the command named by `arguments[0]`; returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            Console.shared.error(help)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch name {
        case "fetch": return await FetchCommand.run(rest)
        case "info": return await InfoCommand.run(rest)
        case "cache": return CacheCommand.run(rest)
        case "demo": return await DemoCommand.run(rest)
        case "serve": return await ServeCommand.run(rest)
        case "-h", "--help", "help":
            Console.shared.print(help)
            return ExitCode.success
        case "--version":
            Console.shared.print("nuke \(version)")
            return ExitCode.success
        default:
            let what = name.hasPrefix("-") ? "option" : "command"
            Console.shared.error("nuke: unknown \(what) '\(name)'\n\n\(help)")
            return ExitCode.usage
        }
    }

    /// Prints a usage error with the command's help; returns ``ExitCode/usage``.
    static func usageFailure(_ error: any Error, help: String) -> Int32 {
        Console.shared.error("nuke: \(error)\n\n\(help)")
        return ExitCode.usage
    }

    /// Prints `nuke: ` and the error's sentence (see ``CommandError``) on standard error; returns
    /// ``ExitCode/failure``.
    static func failure(_ error: any Error) -> Int32 {
        Console.shared.clearProgress()
        Console.shared.error("nuke: \(error)")
        return ExitCode.failure
    }
}
