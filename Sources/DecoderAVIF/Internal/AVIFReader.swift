internal import CAVIF
internal import CAVIFShim
import Foundation
import NukeCore

/// The one owner of an `avifDecoder` reading bytes in memory; `deinit` releases it with `avifDecoderDestroy`.
///
/// The bytes must stay valid for the reader's lifetime. Not thread-safe: one reader walks one file.
final class AVIFReader {
    private let decoder: UnsafeMutablePointer<avifDecoder>
    /// The displayed size of the first image (irot applied), from the container: no pixel is decoded yet.
    let width: Int
    let height: Int
    /// The number of images (1 for a still image).
    let imageCount: Int
    let hasAlpha: Bool
    /// The bit depth of the coded images (8, 10 or 12).
    let depth: Int

    /// Parses the container and checks the size against `configuration` before any image is decoded, and, when
    /// `checksAnimationLimits` (a reader that will walk the sequence), the frame count and the total pixels too.
    init(
        bytes: UnsafeRawBufferPointer, configuration: ImageDecoders.AVIF.Configuration,
        checksAnimationLimits: Bool = true
    ) throws(ImageDecoders.AVIF.Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .emptyData }
        guard let decoder = avifDecoderCreate() else { throw .outOfMemory }
        let image: UnsafeMutablePointer<avifImage>
        do {
            image = try Self.parse(
                decoder, base: base, count: bytes.count, configuration: configuration,
                imageSizeLimit: UInt32(clamping: max(configuration.maximumPixelCount, 1)))
        } catch {
            avifDecoderDestroy(decoder)
            try Self.checkDeclaredSize(base: base, count: bytes.count, configuration: configuration)
            throw error
        }
        self.decoder = decoder
        var width: UInt32 = 0
        var height: UInt32 = 0
        CAVIFShim_DisplayedSize(image, &width, &height)
        self.width = Int(width)
        self.height = Int(height)
        imageCount = Int(decoder.pointee.imageCount)
        hasAlpha = decoder.pointee.alphaPresent != AVIF_FALSE
        depth = Int(image.pointee.depth)
        // From here a throw releases the reader (and the decoder) through deinit.
        try configuration.checkPixelCount(
            width: self.width, height: self.height, throwing: ImageDecoders.AVIF.Error.self)
        guard imageCount >= 1 else { throw .invalidData(message: "the file has no image") }
        guard checksAnimationLimits else { return }
        try configuration.checkFrameCount(imageCount, throwing: ImageDecoders.AVIF.Error.self)
        let (imagePixels, overflowA) = self.width.multipliedReportingOverflow(by: self.height)
        let (total, overflowB) = imagePixels.multipliedReportingOverflow(by: imageCount)
        // An overflowing total is passed as -1, which is over any limit.
        _ = try configuration.addingPixels(
            overflowA || overflowB ? -1 : total, to: 0, throwing: ImageDecoders.AVIF.Error.self)
    }

    /// When parsing with our pixel limit failed: parses again with libavif's default limit and throws our typed
    /// `imageTooLarge` if the container declares more pixels than we allow; returns otherwise (the first error
    /// stands).
    private static func checkDeclaredSize(
        base: UnsafeRawPointer, count: Int, configuration: ImageDecoders.AVIF.Configuration
    ) throws(ImageDecoders.AVIF.Error) {
        guard let decoder = avifDecoderCreate() else { return }
        defer { avifDecoderDestroy(decoder) }
        guard decoder.pointee.imageSizeLimit > configuration.maximumPixelCount,
            let image = try? parse(decoder, base: base, count: count, configuration: configuration, imageSizeLimit: nil)
        else { return }
        var width: UInt32 = 0
        var height: UInt32 = 0
        CAVIFShim_DisplayedSize(image, &width, &height)
        try configuration.checkPixelCount(
            width: Int(width), height: Int(height), throwing: ImageDecoders.AVIF.Error.self)
    }

    /// Sets libavif's limits and reads the container (`avifDecoderParse`); returns the image it describes.
    ///
    /// `imageSizeLimit` (pixels, at most libavif's default of 16384²; `nil` keeps that default) is also the
    /// largest frame dav1d decodes: libavif decodes a coded frame larger than its container declares whole and
    /// then scales it down to the declared size, so the limit has to be ours.
    private static func parse(
        _ decoder: UnsafeMutablePointer<avifDecoder>, base: UnsafeRawPointer, count: Int,
        configuration: ImageDecoders.AVIF.Configuration, imageSizeLimit: UInt32?
    ) throws(ImageDecoders.AVIF.Error) -> UnsafeMutablePointer<avifImage> {
        decoder.pointee.maxThreads = 1
        if let imageSizeLimit {
            // libavif refuses to parse with a limit above its default.
            decoder.pointee.imageSizeLimit = min(imageSizeLimit, decoder.pointee.imageSizeLimit)
        }
        // libavif's count limit stays at least at its default, so that a file over ours parses and gets our typed
        // error (the count is checked right after parsing, before any image is decoded).
        decoder.pointee.imageCountLimit = UInt32(
            clamping: max(Int(decoder.pointee.imageCountLimit), configuration.maximumFrameCount))
        // Browsers show files without the 'pixi' property (older encoders omitted it); keep the other checks.
        decoder.pointee.strictFlags = avifStrictFlags(
            AVIF_STRICT_CLAP_VALID.rawValue | AVIF_STRICT_ALPHA_ISPE_REQUIRED.rawValue)
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
        try check(avifDecoderSetIOMemory(decoder, base.assumingMemoryBound(to: UInt8.self), count))
        try check(avifDecoderParse(decoder))
        guard let image = decoder.pointee.image else { throw .invalidData(message: "no image") }
        return image
    }

    deinit {
        avifDecoderDestroy(decoder)
    }

    /// Each image's duration in seconds, from the container.
    func durations() throws(ImageDecoders.AVIF.Error) -> [TimeInterval] {
        try (0..<imageCount).map { (index: Int) throws(ImageDecoders.AVIF.Error) -> TimeInterval in
            var timing = avifImageTiming()
            try Self.check(avifDecoderNthImageTiming(decoder, UInt32(index), &timing))
            return timing.duration.isFinite && timing.duration >= 0 ? timing.duration : 0
        }
    }

    /// Decodes the next image as premultiplied RGBA with its transforms applied.
    func nextImage() throws(ImageDecoders.AVIF.Error) -> PlatformImage {
        try Self.check(avifDecoderNextImage(decoder))
        guard let image = decoder.pointee.image else { throw .invalidData(message: "no image") }
        var width: UInt32 = 0
        var height: UInt32 = 0
        CAVIFShim_DisplayedSize(image, &width, &height)
        // Every frame of a sequence has the size the container declared (and that was checked).
        guard Int(width) == self.width, Int(height) == self.height else {
            throw .invalidData(message: "a frame is \(width)×\(height), the sequence \(self.width)×\(self.height)")
        }
        do {
            var result = try PlatformImage(width: self.width, height: self.height, isOpaque: !hasAlpha) { pixels in
                guard let base = pixels.baseAddress else { return }
                try Self.check(CAVIFShim_ImageToRGBA(image, base.assumingMemoryBound(to: UInt8.self)))
            }
            result.colorProfile = Self.colorProfile(of: image)
            return result
        } catch let error as ImageDecoders.AVIF.Error {
            throw error
        } catch {
            throw .outOfMemory
        }
    }

    /// The image's `colr` box: its ICC profile, else its CICP description (`nil` when that means sRGB or leaves
    /// it unspecified).
    static func colorProfile(of image: UnsafeMutablePointer<avifImage>) -> ColorProfile? {
        let icc = image.pointee.icc
        if icc.size > 0, let bytes = icc.data {
            return .icc(Data(bytes: bytes, count: icc.size))
        }
        let cicp = ColorProfile.CICP(
            colorPrimaries: UInt16(truncatingIfNeeded: image.pointee.colorPrimaries),
            transferCharacteristics: UInt16(truncatingIfNeeded: image.pointee.transferCharacteristics),
            matrixCoefficients: UInt16(truncatingIfNeeded: image.pointee.matrixCoefficients),
            isFullRange: image.pointee.yuvRange == AVIF_RANGE_FULL)
        return cicp.isSRGB ? nil : .cicp(cicp)
    }

    /// Throws the error for a libavif result other than `AVIF_RESULT_OK`, with libavif's message.
    static func check(_ result: avifResult) throws(ImageDecoders.AVIF.Error) {
        guard result != AVIF_RESULT_OK else { return }
        let message = String(cString: avifResultToString(result))
        switch result {
        case AVIF_RESULT_TRUNCATED_DATA, AVIF_RESULT_WAITING_ON_IO: throw .truncatedData(message: message)
        case AVIF_RESULT_OUT_OF_MEMORY: throw .outOfMemory
        default: throw .invalidData(message: message)
        }
    }
}

/// Decodes a sequence's images in order, with its own copy of the data (libavif reads from it for the
/// decoder's lifetime). Not thread-safe: one decoder walks one sequence on one thread.
final class AVIFSequenceDecoder {
    private let bytes: UnsafeMutableRawBufferPointer
    /// Released before `bytes` in `deinit`: the reader reads them until it is destroyed.
    private var reader: AVIFReader?

    init(data: Data, configuration: ImageDecoders.AVIF.Configuration) throws(ImageDecoders.AVIF.Error) {
        guard !data.isEmpty else { throw .emptyData }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.copyBytes(to: bytes)
        do {
            reader = try AVIFReader(bytes: UnsafeRawBufferPointer(bytes), configuration: configuration)
        } catch {
            bytes.deallocate()
            throw error
        }
        self.bytes = bytes
    }

    deinit {
        reader = nil
        bytes.deallocate()
    }

    func next() throws(ImageDecoders.AVIF.Error) -> PlatformImage {
        guard let reader else { throw .invalidData(message: "the decoder is closed") }  // Only in deinit.
        return try reader.nextImage()
    }
}

/// A pass over a sequence's images.
struct AVIFFrameIterator: ImageAnimationFrameIterator {
    let decoder: AVIFSequenceDecoder
    let frameCount: Int
    var index = 0

    mutating func next() throws -> PlatformImage? {
        guard index < frameCount else { return nil }
        index += 1
        return try decoder.next()
    }
}
