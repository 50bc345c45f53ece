import Foundation

// nuke-bench [SECTION] [--quick] [--only NAME]: ratios of our time to a reference measured in the same run
// (medians of paired runs after a warm-up, with the min–max of the ratios), printed as one table and written to
// Benchmarks/results/latest.md and latest.svg (a run limited by SECTION or --only writes partial.md/.svg).
//   codecs       decoders and thumbnails vs the C libraries and libvips (scenarios 1, 2)
//   processors   resize and blur vs libvips and cairo, and a debug build vs release (scenario 3;
//                `nuke-bench processors --help`)
//   loading      1,000 × 50 KB from a local nginx vs the curl CLI and URLSession (scenario 4)
//   sharing      coalescing: downloads, decodes and wall time vs a naive loader (scenario 5)
//   e2e          a 300-image feed vs Python (httpx + Pillow, pyvips) (scenario 6)
//   memcache     memory-cache hits vs a locked Dictionary, and 2,000 requests for 200 cached originals from 8
//                concurrent callers (the serve-style row) (scenario 7)
//   requests     the pipeline's fixed cost per request, one at a time and 2,000 at once (scenario 10)
//   cache        CacheDisk's DataCache vs write(2)/read(2) of plain files; sweep and open times (scenario 8)
//   memory       peak RSS loading 5,000 images with a 64 MB cache (scenario 9; runs in a child process)
//   httpcache    a fresh hit following HTTP headers vs a plain disk hit; a 304 revalidation vs loading again
//                (scenario 11)
//   redis        CacheRedis: a hit vs a hiredis GET loop, 8 readers vs 1, a second `nuke fetch` process vs the
//                first (scenario 12)
//   serve        nuke serve vs thumbor and nginx (image_filter, static) under wrk: a cached result, uncached
//                thumbnails as JPEG, WebP and AVIF, peak RSS, a fleet of 2 vs 1 (scenario 13)
var arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == MemoryBenchmark.childCommand {
    // The child process of the `memory` section: a fresh process, so that VmHWM is this scenario's alone.
    await MemoryBenchmark.runChild(arguments: Array(arguments.dropFirst()))
    exit(0)
}

/// Every section, in the order a full run goes through them.
let sections: [(name: String, run: (BenchContext) async throws -> Void)] = [
    (
        "codecs",
        { context in
            let codecs = CodecBenchmarks(
                runs: context.isQuick ? 5 : 21, largeRuns: context.isQuick ? 5 : 9, only: context.only,
                report: context.report)
            _ = try await codecs.run()
        }
    ),
    (
        "processors",
        { context in
            var processorArguments = context.extraArguments
            if context.isQuick { processorArguments += ["--iterations", "5", "--warmups", "1"] }
            if let only = context.only { processorArguments.append(only) }
            let results = try runProcessorBenchmarks(arguments: processorArguments)
            print("")
            print(BenchRow.header)
            context.report.add(results.flatMap { $0.benchRows() })
            if !processorArguments.contains("--help") && !processorArguments.contains("-h") {
                let debugBuild = DebugBuildBenchmark(
                    options: BenchOptions(arguments: processorArguments), runs: context.runs)
                context.report.add(try debugBuild.run())
            }
        }
    ),
    ("loading", { try await LoadingBenchmark(context: $0).run() }),
    ("sharing", { try await SharingBenchmark(context: $0).run() }),
    ("e2e", { try await FeedBenchmark(context: $0).run() }),
    ("memcache", { try await MemoryCacheBenchmark(context: $0).run() }),
    ("requests", { try await RequestCostBenchmark(context: $0).run() }),
    (
        "cache",
        { context in
            let comparisons = try await CacheBenchmarks(runs: context.isQuick ? 3 : 11, only: context.only).run()
            context.report.add(comparisons.map { $0.benchRow(section: "cache") })
        }
    ),
    ("httpcache", { try await HTTPCacheBenchmark(context: $0).run() }),
    ("redis", { try await RedisBenchmark(context: $0).run() }),
    ("serve", { try await ServeBenchmark(context: $0).run() }),
    ("memory", { try await MemoryBenchmark(context: $0).run() }),
]

let section = arguments.first.flatMap { name in sections.contains { $0.name == name } ? name : nil }
if section != nil { arguments.removeFirst() }
let isQuick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").flatMap {
    arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
}
let report = Report(command: "nuke-bench " + CommandLine.arguments.dropFirst().joined(separator: " "), isQuick: isQuick)
let context = BenchContext(
    isQuick: isQuick, only: only, report: report,
    extraArguments: arguments.filter { $0 != "--quick" && $0 != "--only" && $0 != only })

print("nuke-bench\(isQuick ? " --quick" : ""): ratio = ours ÷ reference, both measured in this run; \(cpuSummary())")
print(BenchRow.header)
var failed = false
for entry in sections where section == nil || section == entry.name {
    print("")
    print("== \(entry.name)")
    do {
        try await entry.run(context)
    } catch {
        // One section failing doesn't lose the others' results.
        print("nuke-bench: section \(entry.name) failed: \(error)")
        report.add(.skipped(section: entry.name, name: "(section)", reference: "—", reason: "failed: \(error)"))
        failed = true
    }
}
report.printTable()
do {
    let isPartial = section != nil || only != nil
    let directory = BenchContext.packageDirectory.appendingPathComponent("results")
    try report.write(to: directory, baseName: isPartial ? "partial" : "latest")
    print("wrote \(directory.path)/\(isPartial ? "partial" : "latest").{md,svg}")
} catch {
    print("nuke-bench: could not write the results: \(error)")
    failed = true
}
exit(failed ? 1 : 0)
