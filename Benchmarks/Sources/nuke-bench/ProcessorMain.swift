// Processor benchmarks: times NukeCore's processors against libvips and cairo/pixman doing the same work in the same
// run, and prints each time as a ratio to the references (lower is better; below 1 means faster).
import BenchReference
import Foundation
import NukeCore

/// Times NukeCore's resize and blur against libvips and cairo (`--iterations N`, `--warmups N`, filters:
/// resize-256, resize-1024, resize-small, blur; the debug-build rows are `DebugBuildBenchmark`).
func runProcessorBenchmarks(arguments: [String]) throws -> [BenchResult] {
    if arguments.contains("--help") || arguments.contains("-h") {
        print(
            """
            Usage: nuke-bench processors [--iterations N] [--warmups N] [FILTER…]

            Times NukeCore's resize and blur against libvips and cairo/pixman in the same process and run, and prints
            each time as a ratio (below 1 means NukeCore is faster) with the PSNR of every output against an exact
            double-precision filter. Then builds NukeCore with -c debug and -c release (a helper executable in
            Benchmarks/.build/processor-timer) and reports how much slower the debug build's resize and blur are.
            FILTER selects cases by name: resize-256, resize-1024, resize-small, blur, debug-resize-256, debug-blur
            (a filter matches every name that contains it: `debug` selects both debug-build rows).
            """)
        return []
    }
    let options = BenchOptions(arguments: arguments)
    guard bench_reference_init() == 0 else {
        throw BenchError(description: "libvips failed to start")
    }

    print("nuke-bench: median of \(options.iterations) runs after \(options.warmups) warm-ups, \(cpuSummary())")
    print(
        "references: libvips \(String(cString: bench_reference_vips_version())) (vips_resize, vips_gaussblur), "
            + "cairo \(String(cString: bench_reference_cairo_version())) (CAIRO_FILTER_GOOD)")
    print("")

    var results: [BenchResult] = []
    let photo = ProcessorTestImages.photo(width: 4000, height: 3000)
    for side in [256, 1024] where options.matches("resize-\(side)") {
        results.append(try ResizeBenchmark(source: photo, side: side).run(options))
    }
    if options.matches("resize-small") {
        let small = ProcessorTestImages.photo(width: 1024, height: 768)
        results.append(try ResizeBenchmark(source: small, side: 256).run(options))
    }
    if options.matches("blur") {
        let image = ProcessorTestImages.photo(width: 1920, height: 1080)
        results.append(try BlurBenchmark(source: image, radius: 8).run(options))
    }
    BenchResult.printTable(results)
    return results
}
