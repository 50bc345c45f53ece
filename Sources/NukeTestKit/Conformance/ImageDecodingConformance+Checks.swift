import Dispatch
import Foundation
import NukeCore

extension ImageDecodingConformance {
    static let allChecks: [Check] = [
        Check(name: "decodesSamples") { suite in
            for sample in suite.samples {
                let decoder = try suite.decoder(for: sample, check: "decodesSamples")
                let container: ImageContainer
                do {
                    container = try decoder.decode(sample.data)
                } catch {
                    throw Failure(check: "decodesSamples", message: "sample '\(sample.name)' failed: \(error)")
                }
                guard container.image.width == sample.width, container.image.height == sample.height,
                    !container.isPreview
                else {
                    throw Failure(
                        check: "decodesSamples",
                        message: "sample '\(sample.name)' decoded to \(container.image.width)×"
                            + "\(container.image.height) (preview: \(container.isPreview)), expected "
                            + "\(sample.width)×\(sample.height)")
                }
            }
        },
        Check(name: "declinesUnrelatedData") { suite in
            for (index, data) in suite.unrelatedData.enumerated() {
                let context = ImageDecodingContext(request: ImageRequest(url: nil), data: data)
                if suite.makeDecoder(context) != nil {
                    throw Failure(
                        check: "declinesUnrelatedData",
                        message: "the factory returned a decoder for unrelated data #\(index) (\(data.count) bytes)")
                }
            }
        },
        Check(name: "rejectsEmptyData") { suite in
            let decoder = try suite.decoder(for: suite.samples[0], check: "rejectsEmptyData")
            if let container = try? decoder.decode(Data()), !container.image.isEmpty {
                throw Failure(check: "rejectsEmptyData", message: "empty data decoded to \(container.image)")
            }
        },
        Check(name: "rejectsGarbage") { suite in
            for sample in suite.samples {
                let decoder = try suite.decoder(for: sample, check: "rejectsGarbage")
                for (name, data) in suite.garbage(comparedTo: sample) {
                    if let container = try? decoder.decode(data), !container.image.isEmpty {
                        throw Failure(
                            check: "rejectsGarbage",
                            message: "\(name) (\(data.count) bytes, no valid header) decoded to "
                                + "\(container.image.width)×\(container.image.height): data without a valid header "
                                + "must throw, never become a made-up image")
                    }
                }
            }
        },
        Check(name: "survivesTruncation") { suite in
            for sample in suite.samples {
                let decoder = try suite.decoder(for: sample, check: "survivesTruncation")
                for data in CorruptionSweep.truncations(of: sample.data).prefix(2048) {
                    if let container = try? decoder.decode(data), !suite.fits(container, in: sample) {
                        throw Failure(
                            check: "survivesTruncation",
                            message: "a \(data.count)-byte prefix of '\(sample.name)' decoded to "
                                + "\(container.image.width)×\(container.image.height), larger than the whole file "
                                + "(\(sample.width)×\(sample.height))")
                    }
                }
            }
        },
        Check(name: "survivesCorruption") { suite in
            for sample in suite.samples {
                let decoder = try suite.decoder(for: sample, check: "survivesCorruption")
                let inputs = CorruptionSweep.mutations(of: sample.data, count: suite.mutationCount, seed: 0xC0FFEE)
                for (index, data) in inputs.enumerated() {
                    if let container = try? decoder.decode(data), !suite.isSane(container, comparedTo: sample) {
                        throw Failure(
                            check: "survivesCorruption",
                            message: "mutation #\(index) of '\(sample.name)' decoded to \(container.image)")
                    }
                }
            }
        },
        Check(name: "partialDataIsSafe") { suite in
            for sample in suite.samples {
                let decoder = try suite.decoder(for: sample, check: "partialDataIsSafe")
                let step = max(1, sample.data.count / 16)
                for length in stride(from: 0, to: sample.data.count, by: step) {
                    guard let preview = decoder.decodePartiallyDownloadedData(sample.data.prefix(length)) else {
                        continue
                    }
                    guard suite.fits(preview, in: sample) else {
                        throw Failure(
                            check: "partialDataIsSafe",
                            message: "a \(length)-byte prefix of '\(sample.name)' previewed as "
                                + "\(preview.image.width)×\(preview.image.height), larger than the whole file "
                                + "(\(sample.width)×\(sample.height))")
                    }
                }
            }
        },
        Check(name: "isThreadSafe") { suite in
            let sample = suite.samples[0]
            let decoder = try suite.decoder(for: sample, check: "isThreadSafe")
            let expected = try? decoder.decode(sample.data).image
            let mismatches = LockedValueBox(0)
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if (try? decoder.decode(sample.data).image) != expected { mismatches.withLock { $0 += 1 } }
            }
            if mismatches.snapshot > 0 {
                throw Failure(
                    check: "isThreadSafe",
                    message: "\(mismatches.snapshot) of 8 concurrent decodes of '\(sample.name)' differed from a "
                        + "serial decode")
            }
        },
    ]
}
