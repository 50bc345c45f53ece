internal import CHEIF
internal import CHEIFShim
import Foundation
import NukeCore

/// The one owner of a `heif_context` reading bytes in memory; `deinit` releases it with `heif_context_free`.
///
/// The bytes must stay valid for the reader's lifetime and that of every ``HEIFImageHandle`` it returns (libheif
/// reads them without copying). Not thread-safe: one reader reads one file on one thread.
final class HEIFReader {
    private let context: OpaquePointer
    /// The `irot` and `imir` properties of the items, to compare a thumbnail's with the primary image's.
    let transforms: HEIFTransforms

    /// libheif's own limit on an image side (`MAX_IMAGE_WIDTH` and `MAX_IMAGE_HEIGHT` in 1.15): a side of this many
    /// pixels or more is refused while the container is read.
    static let libheifMaximumSide = 32768

    /// Reads the container (no image is decoded), with libheif's side limit lowered to the pixel limit when that
    /// is smaller (a side larger than the pixel limit can't pass it) and tiles decoded on the calling thread, and
    /// checks the canvas size of every grid and overlay item against the pixel limit (see ``HEIFDerivedImages``).
    init(
        bytes: UnsafeRawBufferPointer, configuration: ImageDecoders.HEIF.Configuration
    ) throws(ImageDecoders.HEIF.Error) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw .emptyData }
        guard let context = heif_context_alloc() else { throw .outOfMemory }
        self.context = context
        transforms = HEIFTransforms(bytes: bytes)
        // From here a throw releases the context through deinit.
        let pixels = max(configuration.maximumPixelCount, 0)
        let side = pixels < Self.libheifMaximumSide ? pixels + 1 : Self.libheifMaximumSide
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: side))
        heif_context_set_max_decoding_threads(context, 0)
        try Self.check(heif_context_read_from_memory_without_copy(context, base, bytes.count, nil))
        // libheif allocates a grid's or an overlay's canvas at the size its data declares: check those too.
        for item in try HEIFDerivedImages(bytes: bytes).items {
            guard item.width > 0, item.height > 0 else {
                throw .invalidData(message: "a derived image ('\(item.type)') is \(item.width)×\(item.height)")
            }
            try configuration.checkPixelCount(
                width: item.width, height: item.height, throwing: ImageDecoders.HEIF.Error.self)
        }
        // libde265 decodes the picture size the HEVC stream declares, whatever the 'ispe' says: check it too.
        for size in try HEVCCodedSizes(bytes: bytes).sizes {
            try configuration.checkPixelCount(
                width: size.width, height: size.height, throwing: ImageDecoders.HEIF.Error.self)
        }
    }

    deinit {
        heif_context_free(context)
    }

    /// The primary image (`pitm`).
    func primaryImage() throws(ImageDecoders.HEIF.Error) -> HEIFImageHandle {
        var id: heif_item_id = 0
        try Self.check(heif_context_get_primary_image_ID(context, &id))
        var handle: OpaquePointer?
        try Self.check(heif_context_get_primary_image_handle(context, &handle))
        guard let handle else { throw .invalidData(message: "the file has no primary image") }
        return HEIFImageHandle(handle, id: id, reader: self)
    }

    /// Throws the error for a libheif result other than `heif_error_Ok`, with libheif's message (copied: libheif
    /// keeps it in the context).
    static func check(_ error: heif_error) throws(ImageDecoders.HEIF.Error) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        switch (error.code, error.subcode) {
        case (_, heif_suberror_End_of_data): throw .truncatedData(message: message)
        case (_, heif_suberror_Security_limit_exceeded): throw .limitExceeded(message: message)
        case (heif_error_Memory_allocation_error, _): throw .outOfMemory
        case (heif_error_Unsupported_feature, _), (heif_error_Unsupported_filetype, _):
            throw .unsupportedFeature(message: message)
        default: throw .invalidData(message: message)
        }
    }
}

/// The one owner of a `heif_image_handle` (an image item: the primary image or a thumbnail); `deinit` releases it
/// with `heif_image_handle_release`. It keeps its reader, and so the bytes it reads, alive.
final class HEIFImageHandle {
    let handle: OpaquePointer
    /// The item's ID in the file.
    let id: heif_item_id
    private let reader: HEIFReader
    /// The size as displayed (`clap`, `irot` applied), from the container: no pixel is decoded yet.
    let width: Int
    let height: Int
    let hasAlpha: Bool

    init(_ handle: OpaquePointer, id: heif_item_id, reader: HEIFReader) {
        self.handle = handle
        self.id = id
        self.reader = reader
        width = Int(heif_image_handle_get_width(handle))
        height = Int(heif_image_handle_get_height(handle))
        hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
    }

    deinit {
        heif_image_handle_release(handle)
    }

    /// The smallest thumbnail item at least as large as `target` wants from this image, with this image's aspect
    /// ratio (within two pixels of the thumbnail's size: encoders round thumbnails to even sizes), the same `irot`
    /// and `imir` properties, and fewer pixels; `nil` for a full-size target or when no thumbnail fits.
    func thumbnail(covering target: ImageDecodingTarget) -> HEIFImageHandle? {
        guard width > 0, height > 0 else { return nil }
        let size = target.pixelSize(width: width, height: height)
        guard size.width < width || size.height < height else { return nil }
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: count)
        let filled = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(clamping: count)))
        var best: HEIFImageHandle?
        for id in ids.prefix(max(0, min(filled, count))) {
            var thumbnailHandle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(handle, id, &thumbnailHandle).code == heif_error_Ok,
                let thumbnailHandle
            else { continue }
            let thumbnail = HEIFImageHandle(thumbnailHandle, id: id, reader: reader)
            let covers = thumbnail.width >= size.width && thumbnail.height >= size.height
            let smaller = thumbnail.width * thumbnail.height < width * height
            // The same picture: thumbnail width ÷ height equals width ÷ height within two pixels of rounding.
            let sameShape = abs(thumbnail.width * height - thumbnail.height * width) <= 2 * max(width, height)
            // The same orientation: a thumbnail item whose irot/imir differ from the image's shows another picture.
            let sameOrientation = reader.transforms[thumbnail.id] == reader.transforms[self.id]
            guard covers, smaller, sameShape, sameOrientation else { continue }
            if let current = best, current.width * current.height <= thumbnail.width * thumbnail.height { continue }
            best = thumbnail
        }
        return best
    }

    /// Decodes the image as premultiplied RGBA8 in display orientation (libheif applies `clap`, `irot` and `imir`).
    func decode() throws(ImageDecoders.HEIF.Error) -> PlatformImage {
        guard let options = heif_decoding_options_alloc() else { throw .outOfMemory }
        defer { heif_decoding_options_free(options) }
        options.pointee.ignore_transformations = 0
        options.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        try HEIFReader.check(
            heif_decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options))
        guard let decoded else { throw .invalidData(message: "libheif returned no image") }
        defer { heif_image_release(decoded) }
        let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        // libheif decodes the size the container declares; anything else is a file we don't trust.
        guard width == self.width, height == self.height else {
            throw .invalidData(
                message: "the decoded image is \(width)×\(height), the container says \(self.width)×\(self.height)")
        }
        let isPremultiplied = heif_image_is_premultiplied_alpha(decoded) != 0
        do {
            var image = try PlatformImage(
                width: width, height: height, isPremultiplied: !hasAlpha || isPremultiplied, isOpaque: !hasAlpha
            ) { pixels in
                let opaque: Int32 = hasAlpha ? 0 : 1
                guard let output = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    CHEIFShim_CopyRGBA(decoded, Int32(width), Int32(height), opaque, output) == 0
                else { throw ImageDecoders.HEIF.Error.invalidData(message: "libheif returned no RGBA plane") }
            }
            image.colorProfile = colorProfile.handedOver
            return image
        } catch let error as ImageDecoders.HEIF.Error {
            throw error
        } catch {
            throw .outOfMemory
        }
    }
}
