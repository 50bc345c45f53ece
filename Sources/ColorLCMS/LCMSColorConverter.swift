internal import CLCMS2
internal import CLCMS2Shim
import Dispatch
import Foundation
public import NukeCore

/// Converts images from their embedded colour profile to sRGB with Little CMS 2 (lcms2), as libvips, imgproxy and
/// thumbor do: a `ColorConverting` for `ImagePipeline.Configuration.colorConverter`.
///
/// ```swift
/// let pipeline = ImagePipeline {
///     $0.colorConverter = LCMSColorConverter()
/// }
/// ```
///
/// ICC profiles (version 2 and 4) are read by lcms2. CICP descriptions are built into a profile for the common
/// cases: BT.709 or unspecified primaries with the sRGB transfer need nothing (the image is returned as it is,
/// without its profile); Display P3 primaries (SMPTE EG 432) with the sRGB transfer are converted. Anything else
/// (BT.2020 with PQ or HLG, which would need tone mapping) throws ``Error/unsupportedCICP(_:)``, and the pipeline
/// keeps the pixels as decoded.
///
/// ## Contract
/// - Thread-safe: one converter serves every decoding thread. A transform is built once per profile (keyed by
///   the profile's bytes, hash and equality) and reused by later images with the same profile; a profile lcms2
///   rejects is remembered too, so a damaged profile is parsed once. At most
///   ``Configuration/maximumCachedTransformCount`` profiles are remembered.
/// - Works on `PlatformImage`'s premultiplied RGBA: opaque images (`PlatformImage.isOpaque`) with a matrix/TRC
///   profile (Display P3, Adobe RGB, ProPhoto and most others) through tables made from the profile's curves and
///   colorants (what lcms2 computes for them, within a level, about four times faster); other opaque images through
///   lcms2 as RGBA with the alpha copied; images with alpha through lcms2's premultiplied format
///   (`TYPE_RGBA_8_PREMUL`). Size, scale and opacity are kept; the result's `PlatformImage.colorProfile` is `nil`.
/// - The intent is ``Configuration/intent``, relative colorimetric by default, which is libvips' default (its
///   `thumbnail` and `icc_transform` operations).
public final class LCMSColorConverter: ColorConverting, Sendable {
    /// The converter's settings.
    public let configuration: Configuration
    private let cache: LCMSTransformCache

    /// Creates a converter. No lcms2 work happens until the first image.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.cache = LCMSTransformCache(
            capacity: max(1, configuration.maximumCachedTransformCount), intent: configuration.intent)
    }

    /// Converts `image` from its `PlatformImage.colorProfile` to sRGB in place and sets the profile to `nil`;
    /// an image without a profile, or with a CICP description that already means sRGB, keeps its pixels
    /// (bit-exact). The pixels are written where they are unless another image shares them (then they are copied
    /// first, as `PlatformImage.withUnsafeMutableBytes` does). The profile is checked even for an empty image, so
    /// converting `PlatformImage()` with a profile tells whether the converter can use it.
    ///
    /// - Throws: ``Error/invalidProfile`` when lcms2 rejects the ICC bytes or can't build a transform from them
    ///   (damaged, truncated, not an RGB profile); ``Error/unsupportedCICP(_:)`` for a CICP description it has
    ///   no profile for. `image` is then unchanged, profile included.
    public func convertToSRGB(_ image: inout PlatformImage) throws {
        guard let profile = image.colorProfile else { return }
        if case let .cicp(value) = profile, value.isSRGB {
            image.colorProfile = nil
            return
        }
        let transform = try cache.transform(for: profile, premultiplied: !image.isOpaque)
        image.colorProfile = nil
        guard !image.isEmpty else { return }
        let (width, height, bytesPerRow) = (image.width, image.height, image.bytesPerRow)
        image.withUnsafeMutableBytes { pixels in
            guard let base = pixels.baseAddress else { return }
            // Bands of rows on several threads for large images; lcms2 transforms in place when the formats match.
            let bandCount = min(max(1, width * height / Self.pixelsPerBand), Self.maximumBandCount)
            let rowsPerBand = (height + bandCount - 1) / bandCount
            let address = UInt(bitPattern: base)  // Sendable across the concurrent closure.
            DispatchQueue.concurrentPerform(iterations: bandCount) { band in
                let firstRow = band * rowsPerBand
                let rows = min(rowsPerBand, height - firstRow)
                guard rows > 0, let start = UnsafeMutableRawPointer(bitPattern: address + UInt(firstRow * bytesPerRow))
                else { return }
                transform.apply(start, width: width, rows: rows, bytesPerRow: bytesPerRow)
            }
        }
    }

    /// A converter for rows of pixels in `profile`, for decoders that convert while they decode
    /// (`ImageDecodingContext.colorConverter`): the same cached transform ``convertToSRGB(_:)`` uses, so the
    /// pixels are the same; `nil` for a profile lcms2 rejects and for a CICP description that means sRGB (no
    /// pixel changes).
    public func makeRowConverter(for profile: ColorProfile, isOpaque: Bool) -> (any ColorRowConverting)? {
        if case let .cicp(value) = profile, value.isSRGB {
            return nil
        }
        return try? cache.transform(for: profile, premultiplied: !isOpaque)
    }

    /// The number of transforms built so far, and the number of images that reused one: for tests and metrics.
    public var cacheStatistics: (transformsCreated: Int, hits: Int) {
        cache.statistics
    }

    /// The profile's description (its ICC `desc` tag, as lcms2 reads it in English) or, for a CICP description,
    /// its code points (`ColorProfile.CICP.description`); `nil` when the ICC bytes can't be read.
    public static func description(of profile: ColorProfile) -> String? {
        switch profile {
        case let .cicp(value): value.description
        case let .icc(data): LCMSProfile(iccData: data)?.descriptionText
        }
    }

    /// Images of at least this many pixels per band are split into bands converted in parallel.
    private static let pixelsPerBand = 1 << 20
    private static let maximumBandCount = 8
}

extension LCMSColorConverter {
    /// A converter with the default ``Configuration``, shared so that every pipeline of the process reuses its
    /// transforms; the one the `Nuke` product's configurations set.
    public static let shared = LCMSColorConverter()
}
