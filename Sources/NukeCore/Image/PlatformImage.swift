public import Foundation

/// A decoded image: a CPU pixel buffer owned by the core, with no dependency on any UI framework.
///
/// ## Pixel layout
/// Pixels are 8-bit RGBA (bytes in the order red, green, blue, alpha), rows top to bottom, each row
/// starting `bytesPerRow` bytes after the previous one (`bytesPerRow >= width * 4`; the padding at the end of a
/// row is unspecified). **Colour is premultiplied by alpha**: a pixel with alpha `a` stores `c * a / 255` for
/// each colour `c`, so an opaque pixel stores its colour unchanged and a fully transparent pixel is all zeros.
/// Use ``init(width:height:bytesPerRow:rgba:scale:isPremultiplied:)`` with `isPremultiplied: false` to
/// build an image from straight (unassociated) alpha.
///
/// `PlatformImage` is a value type with copy-on-write storage: copies are cheap, and it is `Sendable`.
/// An empty image (`width == 0 && height == 0`) is valid; it is what ``ImageDecoders/Empty`` produces.
///
/// ## Memory
/// The pixels of a large image (128 KB or more, about 181×181 pixels) are a memory mapping of their own, not a
/// `malloc` block: when the last copy of the image goes away its pages go back to the system (or to a small pool
/// of at most 16 MB that new images reuse, plus one larger buffer of up to 128 MB kept for one second, for the next
/// photo of a stream), so a process that streams many images through a bounded cache stays bounded too. Smaller
/// images use `malloc`.
public struct PlatformImage: Sendable, Hashable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The number of bytes between the starts of two consecutive rows.
    public let bytesPerRow: Int
    /// The number of pixels per point (1 for most images, 2 for "@2x" assets).
    public var scale: Double
    /// `true` when every pixel is known to be fully opaque (alpha 255). Codecs set it for formats without
    /// alpha; it is a hint that lets processors skip alpha work, never a promise the bytes are checked.
    public var isOpaque: Bool
    /// The colour space of the pixels, as the decoder found it in the file; `nil` (every initializer's value)
    /// means sRGB or unknown, treated as sRGB. The pipeline converts images with a profile to sRGB right after
    /// decoding when it has a ``ImagePipeline/Configuration/colorConverter`` (see
    /// ``ImagePipeline/ColorProfilePolicy``); encoders embed a profile that is still here.
    public var colorProfile: ColorProfile?

    // Internal (not private) so that the initializers in other files can set it.
    var storage: PixelStorage

    /// The number of bytes in one pixel (RGBA, 8 bits each).
    public static let bytesPerPixel = 4

    /// The size in points: the pixel size divided by ``scale``.
    public var size: CGSize {
        CGSize(width: Double(width) / scale, height: Double(height) / scale)
    }

    /// The number of bytes of pixel data, including row padding.
    public var byteCount: Int { storage.count }

    /// `true` when the image has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Creates an empty image (no pixels).
    public init() {
        self.width = 0
        self.height = 0
        self.bytesPerRow = 0
        self.scale = 1
        self.isOpaque = true
        self.storage = .empty
    }

    /// Creates a zero-filled (fully transparent) image.
    ///
    /// - Throws: ``PlatformImage/Error`` if a dimension is negative, the pixel count exceeds
    ///   ``maximumPixelCount``, or `scale` is not a positive finite number.
    public init(width: Int, height: Int, scale: Double = 1) throws {
        let bytesPerRow = try Self.validate(width: width, height: height, scale: scale)
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.scale = scale
        self.isOpaque = false
        self.storage = .zeroed(count: bytesPerRow * height)
    }

    /// Creates an image from RGBA pixel data.
    ///
    /// - Parameters:
    ///   - width: The width in pixels; positive.
    ///   - height: The height in pixels; positive.
    ///   - bytesPerRow: The row stride of `rgba`; `nil` means tightly packed (`width * 4`).
    ///   - rgba: The pixels, row by row. It must hold at least `bytesPerRow * (height - 1) + width * 4` bytes;
    ///     extra bytes are ignored.
    ///   - scale: The image's ``scale``; positive and finite.
    ///   - isPremultiplied: Pass `false` if the colour in `rgba` is not multiplied by alpha; the
    ///     initializer converts it.
    /// - Throws: ``PlatformImage/Error`` when the dimensions, stride or data length don't fit together.
    public init(
        width: Int,
        height: Int,
        bytesPerRow: Int? = nil,
        rgba: [UInt8],
        scale: Double = 1,
        isPremultiplied: Bool = true
    ) throws {
        let packedRow = try Self.validate(width: width, height: height, scale: scale)
        let stride = bytesPerRow ?? packedRow
        guard stride >= packedRow else {
            throw Error.invalidBytesPerRow(stride, minimum: packedRow)
        }
        let (rowsBytes, overflow) = stride.multipliedReportingOverflow(by: max(height - 1, 0))
        let required = height == 0 ? 0 : rowsBytes + packedRow
        guard !overflow, rgba.count >= required else {
            throw Error.insufficientData(count: rgba.count, required: overflow ? Int.max : required)
        }
        // Packed rows, so that the storage never holds more than the image needs.
        self.init(unchecked: width, height: height, scale: scale, isOpaque: false) { pixels in
            rgba.withUnsafeBytes { source in
                guard let src = source.baseAddress, let dst = pixels.baseAddress else { return }
                if stride == packedRow {
                    dst.copyMemory(from: src, byteCount: required)
                } else {
                    for y in 0..<height {
                        (dst + y * packedRow).copyMemory(from: src + y * stride, byteCount: packedRow)
                    }
                }
            }
        }
        if !isPremultiplied {
            premultiplyInPlace()
        }
    }

    /// Creates an image whose tightly packed pixels `initializer` writes, without validating anything; for
    /// codecs and processors, which check the dimensions themselves.
    ///
    /// `initializer` is called exactly once with `width * height * 4` bytes of unspecified contents and must
    /// write all of them (or throw, and the storage is released).
    ///
    /// - Precondition: The dimensions are non-negative and within ``maximumPixelCount``, and `scale` is
    ///   positive and finite.
    init(
        unchecked width: Int,
        height: Int,
        scale: Double,
        isOpaque: Bool,
        initializingPixelsWith initializer: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        assert(width >= 0 && height >= 0 && width * height <= Self.maximumPixelCount)
        let storage = PixelStorage.uninitialized(count: width * Self.bytesPerPixel * height)
        try initializer(UnsafeMutableRawBufferPointer(start: storage.bytes, count: storage.count))
        self.width = width
        self.height = height
        self.bytesPerRow = width * Self.bytesPerPixel
        self.scale = scale
        self.isOpaque = isOpaque
        self.storage = storage
    }

    /// Calls `body` with the raw pixel bytes (see the type's documentation for the layout).
    ///
    /// The buffer is valid only for the duration of the call.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) {
            try body(UnsafeRawBufferPointer(start: storage.bytes, count: storage.count))
        }
    }

    /// Calls `body` with mutable pixel bytes, copying the storage first if another image shares it.
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        if storage.count > 0 && !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
        return try withExtendedLifetime(storage) {
            try body(UnsafeMutableRawBufferPointer(start: storage.bytes, count: storage.count))
        }
    }

    /// A copy of the pixel bytes (premultiplied RGBA, `bytesPerRow` stride).
    public var bytes: [UInt8] {
        withUnsafeBytes { [UInt8]($0) }
    }

    /// The premultiplied RGBA value of the pixel at (`x`, `y`), or `nil` when the point is outside the image.
    public func pixel(x: Int, y: Int) -> RGBA? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = y * bytesPerRow + x * Self.bytesPerPixel
        return withUnsafeBytes { buffer in
            RGBA(r: buffer[offset], g: buffer[offset + 1], b: buffer[offset + 2], a: buffer[offset + 3])
        }
    }

    /// Sets the premultiplied RGBA value of the pixel at (`x`, `y`); points outside the image are ignored.
    public mutating func setPixel(_ value: RGBA, x: Int, y: Int) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let offset = y * bytesPerRow + x * Self.bytesPerPixel
        withUnsafeMutableBytes { buffer in
            buffer[offset] = value.r
            buffer[offset + 1] = value.g
            buffer[offset + 2] = value.b
            buffer[offset + 3] = value.a
        }
    }

    /// The pixels with straight (non-premultiplied) alpha, tightly packed (`width * 4` bytes a row).
    public func unpremultipliedRGBA() -> [UInt8] {
        var result = [UInt8](repeating: 0, count: width * height * Self.bytesPerPixel)
        withUnsafeBytes { src in
            result.withUnsafeMutableBytes { dst in
                var out = 0
                for y in 0..<height {
                    var offset = y * bytesPerRow
                    for _ in 0..<width {
                        let a = Int(src[offset + 3])
                        for c in 0..<3 {
                            let value = Int(src[offset + c])
                            dst[out + c] = a == 0 ? 0 : UInt8(min(255, (value * 255 + a / 2) / a))
                        }
                        dst[out + 3] = UInt8(a)
                        offset += 4
                        out += 4
                    }
                }
            }
        }
        return result
    }

    mutating func premultiplyInPlace() {
        let width = self.width
        let height = self.height
        let bytesPerRow = self.bytesPerRow
        withUnsafeMutableBytes { buffer in
            for y in 0..<height {
                var offset = y * bytesPerRow
                for _ in 0..<width {
                    let a = UInt16(buffer[offset + 3])
                    if a != 255 {
                        for c in 0..<3 {
                            let value = UInt16(buffer[offset + c]) * a + 127
                            buffer[offset + c] = UInt8((value + (value >> 8)) >> 8)
                        }
                    }
                    offset += 4
                }
            }
        }
    }
}

extension PlatformImage {
    /// Equal when the dimensions, ``scale``, ``isOpaque``, ``colorProfile`` and every pixel byte are equal.
    public static func == (lhs: PlatformImage, rhs: PlatformImage) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.bytesPerRow == rhs.bytesPerRow
            && lhs.scale == rhs.scale && lhs.isOpaque == rhs.isOpaque && lhs.colorProfile == rhs.colorProfile
            && lhs.storage.hasSameBytes(as: rhs.storage)
    }

    /// Hashes what ``==(_:_:)`` compares, the pixel bytes included.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(bytesPerRow)
        hasher.combine(scale)
        hasher.combine(isOpaque)
        hasher.combine(colorProfile)
        withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
