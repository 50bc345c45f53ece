import BenchReference
import Foundation
import NukeCore

/// One row of the report.
struct BenchResult {
    var name: String
    var nuke: Timing
    var vips: Timing
    var cairo: Timing?
    /// PSNR of each output against an exact double-precision reference filter (dB; higher is closer).
    var quality: (nuke: Double, vips: Double, cairo: Double?)

    static func printTable(_ results: [BenchResult]) {
        func ms(_ value: Double?) -> String { value.map { String(format: "%7.1f", $0) } ?? "      —" }
        func ratio(_ a: Double, _ b: Double?) -> String { b.map { String(format: "%5.2f×", a / $0) } ?? "    —" }
        func db(_ value: Double?) -> String {
            guard let value else { return "    —" }
            return value.isInfinite ? "  inf" : String(format: "%5.1f", value)
        }
        print("wall = elapsed ms, cpu = process CPU ms (all threads); ratios below 1 mean NukeCore is faster")
        print("PSNR = dB against an exact double-precision filter (higher is closer)")
        print("")
        print(
            "operation                       |  nuke wall/cpu |  vips wall/cpu | cairo wall/cpu "
                + "| nuke/vips wall cpu | nuke/cairo wall cpu | PSNR nuke  vips cairo")
        for r in results {
            let columns = [
                r.name.padding(toLength: 32, withPad: " ", startingAt: 0),
                " " + ms(r.nuke.wall) + ms(r.nuke.cpu),
                " " + ms(r.vips.wall) + ms(r.vips.cpu),
                " " + ms(r.cairo?.wall) + ms(r.cairo?.cpu),
                "       " + ratio(r.nuke.wall, r.vips.wall) + ratio(r.nuke.cpu, r.vips.cpu),
                "        " + ratio(r.nuke.wall, r.cairo?.wall) + ratio(r.nuke.cpu, r.cairo?.cpu),
                "      " + db(r.quality.nuke) + " " + db(r.quality.vips) + " " + db(r.quality.cairo),
            ]
            print(columns.joined(separator: "|"))
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
}

/// Resize of a 4000×3000 image so that its longer side is `side` pixels.
struct ResizeBenchmark {
    let source: PlatformImage
    let side: Int

    func run(_ options: BenchOptions) throws -> BenchResult {
        let processor = ImageProcessors.Resize(
            size: CGSize(width: side, height: side), unit: .pixels, contentMode: .aspectFit)
        guard let ours = processor.process(source) else { throw BenchError(description: "resize failed") }
        let width = ours.width
        let height = ours.height
        let input = source.bytes
        let reference = Reference.lanczos3(source, width: width, height: height)
        var vipsOutput = [UInt8](repeating: 0, count: width * height * 4)
        var cairoOutput = [UInt8](repeating: 0, count: width * height * 4)
        let times = try measure(
            options,
            [
                { _ = processor.process(source) },
                {
                    let status = bench_vips_resize(
                        input, Int32(source.width), Int32(source.height), &vipsOutput, Int32(width), Int32(height))
                    guard status == 0 else {
                        throw BenchError(
                            description: "vips_resize: \(status) \(String(cString: bench_reference_vips_error()))")
                    }
                },
                {
                    let status = bench_cairo_scale(
                        input, Int32(source.width), Int32(source.height), &cairoOutput, Int32(width), Int32(height))
                    guard status == 0 else { throw BenchError(description: "cairo failed") }
                },
            ])
        let (nukeTime, vipsTime, cairoTime) = (times[0], times[1], times[2])
        return BenchResult(
            name: "resize \(source.width)×\(source.height) → \(width)×\(height)",
            nuke: nukeTime, vips: vipsTime, cairo: cairoTime,
            quality: (psnr(ours.bytes, reference), psnr(vipsOutput, reference), psnr(cairoOutput, reference)))
    }
}

/// Gaussian blur of a 1920×1080 image.
struct BlurBenchmark {
    let source: PlatformImage
    let radius: Int

    func run(_ options: BenchOptions) throws -> BenchResult {
        let processor = ImageProcessors.GaussianBlur(radius: radius)
        guard let ours = processor.process(source) else { throw BenchError(description: "blur failed") }
        let input = source.bytes
        var vipsOutput = [UInt8](repeating: 0, count: input.count)
        let reference = Reference.gaussian(source, sigma: Double(radius))
        let times = try measure(
            options,
            [
                { _ = processor.process(source) },
                {
                    let status = bench_vips_gaussblur(
                        input, Int32(source.width), Int32(source.height), Double(radius), &vipsOutput)
                    guard status == 0 else {
                        throw BenchError(
                            description: "vips_gaussblur: \(String(cString: bench_reference_vips_error()))")
                    }
                },
            ])
        let (nukeTime, vipsTime) = (times[0], times[1])
        return BenchResult(
            name: "blur \(source.width)×\(source.height) σ=\(radius)",
            nuke: nukeTime, vips: vipsTime, cairo: nil,
            quality: (psnr(ours.bytes, reference), psnr(vipsOutput, reference), nil))
    }
}

extension BenchResult {
    /// The rows of the common table: ours vs libvips and ours vs cairo (wall time), PSNR in the notes.
    func benchRows() -> [BenchRow] {
        func db(_ value: Double?) -> String {
            guard let value else { return "—" }
            return value.isInfinite ? "inf" : String(format: "%.1f", value)
        }
        var rows = [
            BenchRow(
                section: "processors", name: name, reference: "libvips", ours: nuke.wallRuns, theirs: vips.wallRuns,
                goal: .atMost(1), note: "PSNR dB ours \(db(quality.nuke)), vips \(db(quality.vips))")
        ]
        if let cairo {
            rows.append(
                BenchRow(
                    section: "processors", name: name, reference: "cairo (pixman, GOOD)", ours: nuke.wallRuns,
                    theirs: cairo.wallRuns, goal: .atMost(1),
                    note: "PSNR dB ours \(db(quality.nuke)), cairo \(db(quality.cairo))"))
        }
        return rows
    }
}
