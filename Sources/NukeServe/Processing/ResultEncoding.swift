import Foundation
import NukeCore

/// The last steps of making a result, after the pipeline has decoded (and processed) the source: choosing between a
/// still and an animation, processing an animation's frames, and encoding — with the processing deadline checked
/// before every step.
struct ResultEncoding {
    /// The result's format.
    let format: OutputFormat
    /// The encoder of the result's format.
    let encoder: any ImageEncoding
    /// The request's processing, applied to every frame of an animation (the pipeline has applied it to the still).
    let processor: ServeProcessor
    /// The pipeline's configuration, whose colour profile policy every frame of an animation gets before
    /// `processor` (the pipeline has applied it to the still): converted to sRGB, or kept for the encoder to embed.
    let colors: ImagePipeline.Configuration
    /// When processing and encoding must be done by.
    let deadline: ContinuousClock.Instant
    /// The processing timeout, for the message.
    let timeout: Double

    /// What is encoded: the pipeline's processed image, or the leading frames of the animated source.
    enum Content {
        case still(PlatformImage)
        case animation(any ImageAnimation)
    }

    /// The content of a result from the pipeline's `container`: its leading frames when the source is an animation,
    /// the configuration keeps more than one frame and `encoder` writes animations; else the processed still.
    ///
    /// - Throws: ``ServeError`` `.overLimit` when the kept frames have more pixels than the configuration allows, or
    ///   when reading the animation hits a decoder's limit; `.unsupportedFormat` when the animation can't be read.
    static func content(
        of container: ImageContainer, encoder: any ImageEncoding, configuration: ImageService.Configuration,
        source: String
    ) throws(ServeError) -> Content {
        guard configuration.maximumAnimationFrames > 1, encoder is any ImageAnimationEncoding,
            let data = container.data, let read = configuration.readAnimation
        else { return .still(container.image) }
        let animation: any ImageAnimation
        do {
            guard let read = try read(data), read.frameCount > 1 else { return .still(container.image) }
            animation = read
        } catch {
            let source = String(source.prefix(120))
            if ServeError.isOverLimit(error) {
                throw ServeError(.overLimit, "the animation \(source) is over a limit: \(error)")
            }
            throw ServeError(.unsupportedFormat, "the animation \(source) could not be read: \(error)")
        }
        let kept = min(animation.frameCount, configuration.maximumAnimationFrames)
        let (canvas, canvasOverflow) = animation.canvasWidth.multipliedReportingOverflow(by: animation.canvasHeight)
        let (pixels, overflow) = canvas.multipliedReportingOverflow(by: kept)
        guard !canvasOverflow, !overflow, pixels <= configuration.maximumAnimationPixelCount else {
            throw ServeError(
                .overLimit,
                "the animation's \(kept) frames of \(animation.canvasWidth)×\(animation.canvasHeight) are more pixels "
                    + "than the limit of \(configuration.maximumAnimationPixelCount)")
        }
        return .animation(LeadingFrames(base: animation, frameCount: kept))
    }

    /// The encoded `content`, or the error that stopped it.
    func encode(_ content: Content) -> Result<Data, ServeError> {
        struct DeadlinePassed: Error {}
        let timedOut = ServeError(.timeout, "processing the result took longer than \(Self.seconds(timeout)) s")
        let encoded: Data?
        do {
            switch content {
            case let .still(image):
                guard ContinuousClock.now < deadline else { return .failure(timedOut) }
                encoded = encoder.encode(image)
            case let .animation(animation):
                guard let encoder = encoder as? any ImageAnimationEncoding else {
                    return .failure(ServeError(.internalError, "the result's encoder does not write animations"))
                }
                encoded = try encoder.encode(animation) { frame in
                    guard ContinuousClock.now < deadline else { throw DeadlinePassed() }
                    var frame = frame
                    colors.applyColorProfilePolicy(to: &frame)
                    return try processor.processed(frame)
                }
            }
        } catch is DeadlinePassed {
            return .failure(timedOut)
        } catch let error as ImageProcessingError {
            if case .outputTooLarge = error {
                return .failure(ServeError(.overLimit, "the result would be over the dimension limit: \(error)"))
            }
            return .failure(ServeError(.internalError, "processing a frame failed: \(error)"))
        } catch {
            return .failure(ServeError(.unsupportedFormat, "a frame of the animation could not be decoded: \(error)"))
        }
        guard let encoded, !encoded.isEmpty else {
            return .failure(ServeError(.internalError, "encoding the result as \(format.fileExtension) failed"))
        }
        return .success(encoded)
    }

    /// `10` for 10.0, `2.5` for 2.5.
    static func seconds(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// The first `frameCount` frames of an animation, with their durations and its loop count.
struct LeadingFrames: ImageAnimation {
    let base: any ImageAnimation
    let frameCount: Int

    var canvasWidth: Int { base.canvasWidth }
    var canvasHeight: Int { base.canvasHeight }
    var loopCount: Int { base.loopCount }
    var frameDurations: [TimeInterval] { Array(base.frameDurations.prefix(frameCount)) }

    func makeFrameIterator() throws -> any ImageAnimationFrameIterator {
        Iterator(base: try base.makeFrameIterator(), remaining: frameCount)
    }

    private struct Iterator: ImageAnimationFrameIterator {
        var base: any ImageAnimationFrameIterator
        var remaining: Int

        mutating func next() throws -> PlatformImage? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            return try base.next()
        }
    }
}
