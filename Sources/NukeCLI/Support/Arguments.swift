/// A command line that failed to parse: unknown options, missing values, wrong counts. Printed with the
/// command's usage; the process exits with ``ExitCode/usage``.
struct UsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The arguments of one command after parsing: positional arguments in order, flags, and option values.
///
/// Grammar: `--name value`, `--name=value`, `-o value`; flags take no value; `--` ends the options (everything
/// after it is positional); `-` alone is positional. `-h` and `--help` are always accepted as flags.
struct Arguments {
    /// Positional arguments in order.
    var positionals: [String] = []
    /// The flags present (with dashes, e.g. `--fit`).
    var flags: Set<String> = []
    /// Option values by name (with dashes, e.g. `--resize`); the last occurrence wins.
    var values: [String: String] = [:]
    /// Every value of each option, in order, for options that may be repeated (`--key A --key B`).
    var allValues: [String: [String]] = [:]

    /// `true` when `-h` or `--help` was given.
    var wantsHelp: Bool { flags.contains("--help") || flags.contains("-h") }

    /// Parses `arguments` given the command's flags and options (names with dashes).
    ///
    /// - Throws: ``UsageError`` naming an unknown option, a flag given a value, or an option without one.
    init(_ arguments: [String], flags knownFlags: Set<String> = [], options knownOptions: Set<String> = []) throws {
        let knownFlags = knownFlags.union(["-h", "--help"])
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if knownFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option '\(name)' takes no value") }
                flags.insert(name)
            } else if knownOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option '\(name)' needs a value") }
                    value = arguments[index]
                    index += 1
                }
                values[name] = value
                allValues[name, default: []].append(value)
            } else {
                throw UsageError("unknown option '\(name)'")
            }
        }
    }

    /// The value of option `name` as a positive integer, or `nil` if absent.
    ///
    /// - Throws: ``UsageError`` if the value is not a positive integer.
    func positiveInteger(_ name: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), value > 0 else {
            throw UsageError("option '\(name)' needs a positive integer, got '\(text)'")
        }
        return value
    }
}

/// Process exit statuses.
enum ExitCode {
    /// Everything worked.
    static let success: Int32 = 0
    /// At least one input failed, or the command's work failed.
    static let failure: Int32 = 1
    /// The command line was wrong (as `EX_USAGE` in `sysexits.h`).
    static let usage: Int32 = 64
}
