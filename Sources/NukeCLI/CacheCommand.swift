import CacheRedis
import Foundation
import Nuke

/// `nuke cache stats|clear`: looks into or empties a disk cache directory.
enum CacheCommand {
    static let summary = "Show the statistics of a disk cache directory, or clear it"

    static let help = """
        USAGE: nuke cache stats --cache-dir DIR | --redis URL
               nuke cache clear --cache-dir DIR | --redis URL

        SUBCOMMANDS:
          stats     Print the cache's path, entry count, total size and size limit, and what opening it did
                    (its statistics: hits, misses, writes, evictions, damaged entries found).
          clear     Remove every entry (the directory stays).

        OPTIONS:
          --cache-dir DIR   The cache directory, as given to `nuke fetch --cache-dir`. Required: the commands never
                            pick a directory on their own. It must be an existing cache (a directory holding the
                            .datacache/ that `nuke fetch --cache-dir` or a DataCache creates); for any other
                            directory, or a missing one, the command creates nothing, says so and exits with 1.
          --redis URL       A Redis cache, as given to `nuke fetch --redis`: stats prints each server's entry
                            count (keys with the cache's prefix), memory and eviction policy; clear removes the
                            cache's keys (never the rest of the database).
          -h, --help        Show this help.
        """

    static func run(_ arguments: [String]) -> Int32 {
        let subcommand: String
        let directory: String
        var redisURL: String?
        do {
            let parsed = try Arguments(arguments, options: ["--cache-dir", "--redis"])
            if parsed.wantsHelp {
                Console.shared.print(help)
                return ExitCode.success
            }
            guard let first = parsed.positionals.first else {
                throw UsageError("give one subcommand: stats or clear")
            }
            guard ["stats", "clear"].contains(first) else {
                throw UsageError("unknown subcommand '\(first)' (use stats or clear)")
            }
            guard parsed.positionals.count == 1 else {
                throw UsageError("unexpected argument '\(parsed.positionals[1])' after '\(first)'")
            }
            subcommand = first
            redisURL = parsed.values["--redis"]
            if let redisURL {
                guard parsed.values["--cache-dir"] == nil else {
                    throw UsageError("give --cache-dir or --redis, not both")
                }
                do { _ = try RedisEndpoint(url: redisURL) } catch { throw UsageError("--redis: \(error)") }
                directory = ""
            } else {
                guard let value = parsed.values["--cache-dir"] else {
                    throw UsageError("--cache-dir DIR or --redis URL is required")
                }
                directory = value
            }
        } catch {
            return CLI.usageFailure(error, help: help)
        }
        if let redisURL { return runRedis(subcommand, url: redisURL) }
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

    private static func runRedis(_ subcommand: String, url: String) -> Int32 {
        let console = Console.shared
        do {
            let cache = try PipelineFactory.openRedis(url)
            let before = cache.serverStatus()
            guard before.allSatisfy({ $0.entryCount != nil }) else {
                return CLI.failure(CommandError("cannot reach Redis at \(url)"))
            }
            if subcommand == "clear" {
                cache.removeAll()
                cache.flush()
                // The deletion runs in the background and reports nothing; counting what is left tells.
                let left = cache.serverStatus().map { $0.entryCount ?? -1 }
                guard left.allSatisfy({ $0 == 0 }) else {
                    return CLI.failure(CommandError("could not clear Redis at \(url): entries left \(left)"))
                }
                let count = before.compactMap(\.entryCount).reduce(0, +)
                console.print("cleared \(url): removed \(count) entries")
            } else {
                for status in before { console.print(Formatting.row("server", status.description)) }
                console.print(Formatting.row("entries", "\(before.compactMap(\.entryCount).reduce(0, +))"))
            }
            return ExitCode.success
        } catch {
            return CLI.failure(CommandError("\(error)"))
        }
    }
}
