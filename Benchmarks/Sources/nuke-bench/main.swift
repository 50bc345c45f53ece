import Foundation

// nuke-bench [--quick] [--only NAME]: prints ratios of our time to a reference measured in the same run
// (medians of paired runs after a warm-up, with the min–max of the ratios).
let arguments = CommandLine.arguments.dropFirst()
let isQuick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").flatMap {
    arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
}

print("nuke-bench\(isQuick ? " --quick" : ""): ratio = ours ÷ reference, both measured in this run")
print(Comparison.header)
do {
    let codecs = CodecBenchmarks(runs: isQuick ? 5 : 21, largeRuns: isQuick ? 5 : 9, only: only)
    _ = try await codecs.run()
} catch {
    print("nuke-bench failed: \(error)")
    exit(1)
}
