import Foundation
import Nuke

/// `nuke cache stats|clear`: looks into or empties a disk cache directory.
enum CacheCommand {
    static let summary = "Show the statistics of a disk cache directory, or clear it"

    static let help = """
        USAGE: nuke cache stats --cache-dir DIR
               nuke cache clear --cache-dir DIR

        SUBCOMMANDS:
          stats     Print the cache's path, entry count, total size and size limit, and what opening it did
                    (its statistics: hits, misses, writes, evictions, damaged entries found).
          clear     Remove every entry (the directory stays).

        OPTIONS:
          --cache-dir DIR   The cache directory, as given to `nuke fetch --cache-dir`. Required: the commands never
                            pick a directory on their own. It must be an existing cache (a directory holding the
                            .datacache/ that `nuke fetch --cache-dir` or a DataCache creates); for any other
                            directory, or a missing one, the command creates nothing, says so and exits with 1.
          -h, --help        Show this help.
        """

    static func run(_ arguments: [String]) -> Int32 {
        let subcommand: String
        let directory: String
        do {
            let parsed = try Arguments(arguments, options: ["--cache-dir"])
            if parsed.wantsHelp {
                Console.shared.print(help)
                return ExitCode.success
            }
            guard parsed.positionals.count == 1, let first = parsed.positionals.first,
                ["stats", "clear"].contains(first)
            else { throw UsageError("give one subcommand: stats or clear") }
            guard let value = parsed.values["--cache-dir"] else { throw UsageError("--cache-dir DIR is required") }
            subcommand = first
            directory = value
        } catch {
            return CLI.usageFailure(error, help: help)
        }
        do {
            let cache = try PipelineFactory.openCache(at: CacheDirectory.existing(directory).path)
            let console = Console.shared
            if subcommand == "clear" {
                let count = cache.totalCount
                let size = cache.totalSize
                cache.removeAll()
                cache.flush()
                console.print("cleared \(cache.path.path): removed \(count) entries (\(Formatting.bytes(size)))")
            } else {
                let statistics = cache.statistics
                console.print(Formatting.row("path", cache.path.path))
                console.print(Formatting.row("entries", "\(cache.totalCount)"))
                console.print(
                    Formatting.row("total size", "\(Formatting.bytes(cache.totalSize)) (\(cache.totalSize) bytes)"))
                console.print(Formatting.row("size limit", Formatting.bytes(cache.sizeLimit)))
                console.print(
                    Formatting.row(
                        "statistics",
                        "\(statistics.hitCount) hits, \(statistics.missCount) misses, \(statistics.writeCount) writes, "
                            + "\(statistics.evictionCount) evictions, \(statistics.damagedEntryCount) damaged"))
            }
            return ExitCode.success
        } catch let error as CommandError {
            return CLI.failure(error)
        } catch {
            return CLI.failure(CommandError("cannot open the disk cache at \(directory): \(error)"))
        }
    }
}
