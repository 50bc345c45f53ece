extension PlatformImage {
    /// One pixel: premultiplied red, green, blue and alpha, 8 bits each.
    public struct RGBA: Hashable, Sendable, CustomStringConvertible {
        /// Red, premultiplied by alpha.
        public var r: UInt8
        /// Green, premultiplied by alpha.
        public var g: UInt8
        /// Blue, premultiplied by alpha.
        public var b: UInt8
        /// Alpha (0 is transparent, 255 opaque).
        public var a: UInt8

        /// Creates a pixel from premultiplied components.
        public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
            self.r = r
            self.g = g
            self.b = b
            self.a = a
        }

        public var description: String { "RGBA(\(r), \(g), \(b), \(a))" }
    }

    /// The largest number of pixels an image may have (2³¹ − 1, about 2 gigapixels).
    ///
    /// Codecs apply their own, much lower, configurable limits before they allocate.
    public static let maximumPixelCount = Int(Int32.max)

    /// Why an image could not be created.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// A dimension is negative, or the pixel count is larger than ``PlatformImage/maximumPixelCount``.
        case invalidDimensions(width: Int, height: Int)
        /// The scale is zero, negative or not finite.
        case invalidScale(Double)
        /// The row stride is smaller than `width * 4`.
        case invalidBytesPerRow(Int, minimum: Int)
        /// The pixel data is shorter than the dimensions require.
        case insufficientData(count: Int, required: Int)

        public var description: String {
            switch self {
            case let .invalidDimensions(width, height):
                "Invalid image dimensions \(width)×\(height) (at most \(PlatformImage.maximumPixelCount) pixels)"
            case let .invalidScale(scale):
                "Invalid image scale \(scale); it must be a positive finite number"
            case let .invalidBytesPerRow(value, minimum):
                "Invalid bytes per row \(value); at least \(minimum) needed"
            case let .insufficientData(count, required):
                "Pixel data has \(count) bytes; \(required) needed"
            }
        }
    }

    /// Checks the dimensions and returns the packed row size.
    static func validate(width: Int, height: Int, scale: Double) throws(Error) -> Int {
        guard width >= 0, height >= 0 else {
            throw .invalidDimensions(width: width, height: height)
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumPixelCount else {
            throw .invalidDimensions(width: width, height: height)
        }
        guard scale.isFinite, scale > 0 else {
            throw .invalidScale(scale)
        }
        return width * bytesPerPixel
    }
}

extension PlatformImage: CustomStringConvertible {
    public var description: String {
        "PlatformImage(\(width)×\(height) px, scale \(scale)\(isOpaque ? ", opaque" : ""))"
    }
}
