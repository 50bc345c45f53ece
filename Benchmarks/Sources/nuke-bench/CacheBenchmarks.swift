import CacheDisk
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CacheDisk's `DataCache` with 10,000 entries of 50 KB: write and hit-read throughput against `write(2)` and
/// `read(2)` of plain files holding the same bytes (and `Data(contentsOf:)`), measured in the same run; then the
/// time of a sweep, and of opening a cache that holds 100,000 entries.
struct CacheBenchmarks {
    let runs: Int
    let only: String?
    let entryCount = 10_000
    let entrySize = 50 * 1024
    let openEntryCount = 100_000

    /// A directory under the temporary directory, removed with everything in it on `deinit`.
    final class Scratch {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("nuke-bench-cache-\(getpid())", isDirectory: true)

        init() throws {
            try? FileManager.default.removeItem(at: root)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(at: root)
        }

        func path(_ name: String) -> URL { root.appendingPathComponent(name, isDirectory: true) }
    }

    func run() async throws -> [Comparison] {
        let scratch = try Scratch()
        let payloads = (0..<16).map { seed in
            Data((0..<entrySize).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9 &+ seed) })
        }
        let keys = (0..<entryCount).map { "https://example.com/images/\($0).jpeg?width=400" }
        let megabytes = Double(entryCount * entrySize) / 1e6
        var results: [Comparison] = []

        // New entries: storeData for every key, then flush() (so the time includes all the disk work), against
        // open/write/close of new plain files. Every run writes into new directories (made untimed); old ones are
        // removed only at the end, so that neither side creates files right after the other deleted thousands.
        var generation = 0
        var cache = try DataCache(path: scratch.path("cache-0"))
        cache.sizeLimit = 4 << 30
        var rawDirectory = scratch.path("raw-0")
        try FileManager.default.createDirectory(at: rawDirectory, withIntermediateDirectories: true)
        var currentRawPaths: [String] { (0..<entryCount).map { rawDirectory.appendingPathComponent("\($0)").path } }
        let writeAll = {
            for index in 0..<entryCount { cache.storeData(payloads[index % 16], for: keys[index]) }
            cache.flush()
        }
        let writeRaw = { (flags: Int32) in
            for (index, path) in currentRawPaths.enumerated() {
                try writePlainFile(path, payloads[index % 16], flags: flags)
            }
        }
        let writeName = "write 10,000 new × 50 KB (storeData + flush)"
        if selected(writeName) {
            results.append(
                try comparePrepared(
                    writeName, against: "write(2) of new files", goal: "info", runs: max(3, runs / 3),
                    prepare: {
                        generation += 1
                        cache = try DataCache(path: scratch.path("cache-\(generation)"))
                        cache.sizeLimit = 4 << 30
                        rawDirectory = scratch.path("raw-\(generation)")
                        try FileManager.default.createDirectory(at: rawDirectory, withIntermediateDirectories: true)
                    },
                    ours: writeAll, reference: { try writeRaw(O_EXCL) }))
            report(results[results.count - 1], megabytes: megabytes)
        } else {
            writeAll()
            try writeRaw(O_EXCL)
        }

        // Replacing every entry: a new file renamed over the old one, against truncating and rewriting each file.
        let rewriteName = "rewrite 10,000 × 50 KB (storeData + flush)"
        if selected(rewriteName) {
            results.append(
                try comparePrepared(
                    rewriteName, against: "write(2) with O_TRUNC", goal: "info", runs: 3, prepare: {},
                    ours: writeAll, reference: { try writeRaw(O_TRUNC) }))
            report(results[results.count - 1], megabytes: megabytes)
        }

        // Hit reads with a warm page cache, by a fresh instance (as after a restart): every entry once per run.
        // Written data goes to the disk first, so that writeback doesn't disturb the reads.
        sync()
        let reader = try DataCache(path: cache.path)
        let rawPaths = currentRawPaths
        reader.sizeLimit = 4 << 30
        let readCache = {
            for key in keys {
                guard let data = reader.cachedData(for: key), data.count == entrySize else {
                    throw BenchmarkError(description: "DataCache missed \(key)")
                }
            }
        }
        if selected("read hits") {
            results.append(
                try await compare(
                    "read hits 10,000 × 50 KB (cachedData)", against: "read(2) of plain files", goal: "≤ 1.25×",
                    runs: runs, warmUp: 2, ours: readCache,
                    reference: { for path in rawPaths { try readPlainFile(path) } }))
            report(results[results.count - 1], megabytes: megabytes)
            // The same calls on the cache's own files (64-character names, header included): separates what
            // the file system charges for the layout from what the cache does.
            let entryPaths = try FileManager.default.contentsOfDirectory(atPath: reader.path.path)
                .filter { $0.count == 64 }.map { reader.path.appendingPathComponent($0).path }
            results.append(
                try await compare(
                    "read hits 10,000 × 50 KB (cachedData)", against: "read(2) of the entry files", goal: "info",
                    runs: runs, warmUp: 2, ours: readCache,
                    reference: { for path in entryPaths { try readPlainFile(path) } }))
            report(results[results.count - 1], megabytes: megabytes)
            results.append(
                try await compare(
                    "read hits 10,000 × 50 KB (cachedData)", against: "Data(contentsOf:)", goal: "info",
                    runs: runs, warmUp: 2, ours: readCache,
                    reference: {
                        for path in rawPaths { _ = try Data(contentsOf: URL(fileURLWithPath: path)) }
                    }))
            report(results[results.count - 1], megabytes: megabytes)
        }

        // The same hits from 8 threads at once (each an eighth of the keys) against one thread reading them all: on
        // 2 cores, ≤ 0.59× is ≥ 1.7× the throughput.
        let concurrentName = "read hits 10,000 × 50 KB, 8 threads at once"
        if selected(concurrentName) {
            let threadCount = 8
            let sharedKeys = keys
            let entrySize = entrySize
            results.append(
                try await compare(
                    concurrentName, against: "the same reads on one thread", goal: "≤ 0.59×", runs: runs, warmUp: 2,
                    ours: {
                        let misses = await onThreads(threadCount) { thread in
                            stride(from: thread, to: sharedKeys.count, by: threadCount).count {
                                reader.cachedData(for: sharedKeys[$0])?.count != entrySize
                            }
                        }
                        guard misses.reduce(0, +) == 0 else {
                            throw BenchmarkError(description: "DataCache missed \(misses.reduce(0, +)) keys")
                        }
                    },
                    reference: readCache))
            report(results[results.count - 1], megabytes: megabytes)
            // What the kernel allows: read(2) of the plain files from 8 threads at once, against one thread.
            let plainPaths = rawPaths
            results.append(
                try await compare(
                    "read(2) of plain files, 8 threads at once", against: "the same reads on one thread",
                    goal: "info", runs: runs, warmUp: 2,
                    ours: {
                        let failures = await onThreads(threadCount) { thread in
                            stride(from: thread, to: plainPaths.count, by: threadCount).count {
                                (try? readPlainFile(plainPaths[$0]))?.count != entrySize
                            }
                        }
                        guard failures.reduce(0, +) == 0 else {
                            throw BenchmarkError(description: "\(failures.reduce(0, +)) plain reads failed")
                        }
                    },
                    reference: { for path in rawPaths { try readPlainFile(path) } }))
            report(results[results.count - 1], megabytes: megabytes)
        }

        // Sweeps: one with nothing to evict (lists the directory), one that trims to 70 % of half the size.
        if selected("sweep") {
            let check = try measure { reader.sweep() }
            printAbsolute("sweep 10,000 entries, nothing to evict", milliseconds: check, goal: "info")
            let before = reader.totalCount
            reader.sizeLimit = reader.totalSize / 2
            let trim = try measure { reader.sweep() }
            printAbsolute(
                "sweep 10,000 entries, evicting \(before - reader.totalCount)", milliseconds: trim, goal: "info")
        }

        // Opening a cache of 100,000 entries: creating the instance and loading its index from the journal.
        if selected("open") {
            let big = scratch.path("big")
            let filler = try DataCache(path: big)
            filler.sizeLimit = 4 << 30
            let small = Data(repeating: 7, count: 1_000)
            for index in 0..<openEntryCount {
                filler.storeData(small, for: "https://example.com/images/\(index).jpeg")
            }
            filler.flush()
            var times: [Double] = []
            for _ in 0..<max(3, runs / 2) {
                times.append(
                    try measure {
                        let opened = try DataCache(path: big)
                        guard opened.totalCount == openEntryCount else {
                            throw BenchmarkError(description: "opened \(opened.totalCount) entries")
                        }
                    })
            }
            times.sort()
            printAbsolute("open a cache of 100,000 entries", milliseconds: times[times.count / 2], goal: "< 200 ms")
            try FileManager.default.removeItem(at: big.appendingPathComponent(".datacache/journal"))
            let rebuild = try measure { _ = try DataCache(path: big).totalCount }
            printAbsolute("open 100,000 entries without a journal", milliseconds: rebuild, goal: "info (rebuild)")
        }
        return results
    }

    /// Paired timing as ``compare(_:against:goal:runs:warmUp:ours:reference:)`` (one unmeasured warm-up pair,
    /// alternating which side goes first), with an unmeasured `prepare` before each pair.
    private func comparePrepared(
        _ name: String, against referenceName: String, goal: String, runs: Int,
        prepare: () throws -> Void, ours: () throws -> Void, reference: () throws -> Void
    ) throws -> Comparison {
        var oursTimes: [Double] = []
        var theirTimes: [Double] = []
        for index in 0...runs {
            try prepare()
            let (oursTime, theirTime): (Double, Double)
            if index % 2 == 0 {
                oursTime = try measure(ours)
                theirTime = try measure(reference)
            } else {
                theirTime = try measure(reference)
                oursTime = try measure(ours)
            }
            if index > 0 {
                oursTimes.append(oursTime)
                theirTimes.append(theirTime)
            }
        }
        let ratios = zip(oursTimes, theirTimes).map { $0 / $1 }.sorted()
        var comparison = Comparison(
            name: name, reference: referenceName, ours: oursTimes.sorted()[runs / 2],
            theirs: theirTimes.sorted()[runs / 2], ratio: ratios[runs / 2], ratioMin: ratios.first ?? 0,
            ratioMax: ratios.last ?? 0, goal: goal)
        comparison.oursRuns = oursTimes  // The common table takes its medians from the runs.
        comparison.theirRuns = theirTimes
        return comparison
    }

    private func selected(_ name: String) -> Bool {
        guard let only else { return true }
        return name.localizedCaseInsensitiveContains(only)
    }

    /// Prints the row, then both sides as throughput.
    private func report(_ comparison: Comparison, megabytes: Double) {
        print(comparison.row)
        let ours = megabytes / comparison.ours * 1e3
        let theirs = megabytes / comparison.theirs * 1e3
        print(
            "    "
                + String(
                    format: "%.0f MB/s (%.1f µs/entry) vs %.0f MB/s: throughput ratio %.2f×", ours,
                    comparison.ours * 1e3 / Double(entryCount), theirs, ours / theirs))
    }

    private func printAbsolute(_ name: String, milliseconds: Double, goal: String) {
        print(
            name.padding(toLength: 44, withPad: " ", startingAt: 0) + " "
                + "—".padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(format: "%9.2f", milliseconds) + "                                 " + goal)
    }

    private func measure(_ body: () throws -> Void) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}

/// Creates the file at `path` (with `O_EXCL` or `O_TRUNC` in `flags`) and writes `data` with `write(2)`.
private func writePlainFile(_ path: String, _ data: Data, flags: Int32) throws {
    let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | flags, 0o644)
    guard fd >= 0 else { throw BenchmarkError(description: "open \(path): errno \(errno)") }
    defer { close(fd) }
    let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == data.count else { throw BenchmarkError(description: "write \(path): errno \(errno)") }
}

/// Reads the whole file at `path` into a new `Data` with `fstat(2)` and one `read(2)`, the least a reader does.
@discardableResult
private func readPlainFile(_ path: String) throws -> Data {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw BenchmarkError(description: "open \(path): errno \(errno)") }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { throw BenchmarkError(description: "fstat \(path)") }
    let size = Int(status.st_size)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    let count = read(fd, buffer, size)
    guard count == size else {
        buffer.deallocate()
        throw BenchmarkError(description: "read \(path): \(count) of \(size) bytes")
    }
    return Data(bytesNoCopy: buffer, count: size, deallocator: .custom { pointer, _ in pointer.deallocate() })
}
