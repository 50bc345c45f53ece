import CBenchCodecs
import DecoderHEIF
import DecoderJXL
import Foundation
import NukeCore

/// Scenario 1d: a 12 MP photo as HEIC and as JPEG XL, decoded by our decoders and through the pipeline, against
/// tight loops over libheif and libjxl.
extension CodecBenchmarks {
    func runHEIFAndJXL(pipeline: ImagePipeline) async throws -> [Comparison] {
        var results: [Comparison] = []
        let names = ["decode heic 4000×3000", "pipeline heic 4000×3000"]
        if names.contains(where: selected) {
            // The project has no HEIF encoder: libheif's encoder API (x265), heif-enc's defaults (quality 50,
            // 4:2:0) with x265's "medium" preset, written by the C reference target.
            let heic = try heic(try TestImages.photo(width: 4000, height: 3000), quality: 50)
            let reference = { try check(heic) { CBenchCodecs_decodeHEIC($0, $1) } }
            // libheif produces straight RGBA with alpha 255 for an image without alpha: the same bytes ours
            // returns (an opaque image needs no premultiplication).
            results += try await compareRows(
                names, against: "C loop (libheif)", data: heic, pipeline: pipeline,
                ours: { _ = try ImageDecoders.HEIF().decode(heic) }, reference: reference)
        }
        let jxlNames = ["decode jxl 4000×3000", "pipeline jxl 4000×3000"]
        if jxlNames.contains(where: selected) {
            // Our encoder, lossy at its default quality (0.9: distance 1) and effort (7).
            let jxl = try encoded(
                ImageEncoders.JXL().encode(try TestImages.photo(width: 4000, height: 3000)), "large JPEG XL")
            // Single-threaded, as ImageDecoders.JXL decodes (no parallel runner).
            let reference = { try check(jxl) { CBenchCodecs_decodeJXL($0, $1, 0) } }
            results += try await compareRows(
                jxlNames, against: "C loop (libjxl)", data: jxl, pipeline: pipeline,
                ours: { _ = try ImageDecoders.JXL().decode(jxl) }, reference: reference)
            if selected(jxlNames[0]) {
                // For scale: what libjxl's thread pool (one thread a core) would give one decode.
                let threads = Int32(ProcessInfo.processInfo.activeProcessorCount)
                results.append(
                    try await compare(
                        jxlNames[0], against: "C loop (libjxl, \(threads)-thread runner)", goal: "info",
                        runs: largeRuns, ours: { _ = try ImageDecoders.JXL().decode(jxl) },
                        reference: { try check(jxl) { CBenchCodecs_decodeJXL($0, $1, threads) } }))
                report.add(results[results.count - 1].benchRow(section: "codecs"))
            }
        }
        return results
    }

    /// The decoder's row and the pipeline's row (`names`, in that order), each when selected, against the same
    /// reference.
    private func compareRows(
        _ names: [String], against referenceName: String, data: Data, pipeline: ImagePipeline,
        ours: () throws -> Void, reference: () throws -> Void
    ) async throws -> [Comparison] {
        var results: [Comparison] = []
        if selected(names[0]) {
            results.append(
                try await compare(
                    names[0], against: referenceName, goal: "≤ 1.10×", runs: largeRuns, ours: ours,
                    reference: reference))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        if selected(names[1]) {
            results.append(
                try await compare(
                    names[1], against: referenceName, goal: "≤ 1.10×", runs: largeRuns,
                    ours: { try await load(data, pipeline: pipeline) }, reference: reference))
            report.add(results[results.count - 1].benchRow(section: "codecs"))
        }
        return results
    }

    /// `image` as HEIC from libheif's x265 encoder (see `CBenchCodecs_encodeHEIC`), opaque.
    private func heic(_ image: PlatformImage, quality: Int32) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = image.withUnsafeBytes { pixels in
            CBenchCodecs_encodeHEIC(
                pixels.bindMemory(to: UInt8.self).baseAddress!, Int32(image.width), Int32(image.height), quality,
                "medium", &output, &size)
        }
        guard status == 0, let output else { throw BenchmarkError(description: "HEIC encoding failed: \(status)") }
        defer { free(output) }
        return Data(bytes: output, count: size)
    }
}
