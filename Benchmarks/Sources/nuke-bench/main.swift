import Foundation

// nuke-bench [--quick] [--only NAME]: prints ratios of our time to a reference measured in the same run
// (medians of paired runs after a warm-up, with the min–max of the ratios).
//   nuke-bench                 codecs, then processors, then cache
//   nuke-bench codecs …        decoders and thumbnails vs the C libraries and libvips
//   nuke-bench processors …    resize and blur vs libvips and cairo (see `nuke-bench processors --help`)
//   nuke-bench cache …         CacheDisk's DataCache vs write(2)/read(2) of plain files; sweep and open times
var arguments = Array(CommandLine.arguments.dropFirst())
let section = arguments.first.flatMap { ["codecs", "processors", "cache"].contains($0) ? $0 : nil }
if section != nil { arguments.removeFirst() }
let isQuick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").flatMap {
    arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
}

do {
    if section == nil || section == "codecs" {
        print("nuke-bench\(isQuick ? " --quick" : ""): ratio = ours ÷ reference, both measured in this run")
        print(Comparison.header)
        let codecs = CodecBenchmarks(runs: isQuick ? 5 : 21, largeRuns: isQuick ? 5 : 9, only: only)
        _ = try await codecs.run()
        print("")
    }
    if section == nil || section == "processors" {
        var processorArguments = arguments.filter { $0 != "--quick" && $0 != "--only" && $0 != only }
        if isQuick { processorArguments += ["--iterations", "5", "--warmups", "1"] }
        if let only { processorArguments.append(only) }
        try runProcessorBenchmarks(arguments: processorArguments)
    }
    if section == nil || section == "cache" {
        if section == nil { print("") }
        print("nuke-bench cache\(isQuick ? " --quick" : ""): ratio = ours ÷ reference, both measured in this run")
        print(Comparison.header)
        _ = try await CacheBenchmarks(runs: isQuick ? 3 : 11, only: only).run()
    }
} catch {
    print("nuke-bench failed: \(error)")
    exit(1)
}
