public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes to a chosen format — PNG, JPEG, WebP, AVIF or JPEG XL — with this workspace's codecs. It keeps the name of
    /// Nuke's Image I/O encoder so code written for Nuke compiles; Apple's Image I/O does not exist on Linux.
    ///
    /// ```swift
    /// pipeline.configuration.makeImageEncoder = { _ in ImageEncoders.ImageIO(type: .webp, compressionRatio: 0.7) }
    /// ```
    public struct ImageIO: ImageEncoding {
        /// The format to encode to.
        public let type: AssetType
        /// The quality of lossy formats (JPEG, WebP, AVIF, JPEG XL), 0…1; PNG ignores it.
        public let compressionRatio: Float

        /// Creates an encoder for `type`; ``encode(_:)`` returns `nil` for a type ``isSupported(type:)`` rejects.
        public init(type: AssetType, compressionRatio: Float = 0.8) {
            self.type = type
            self.compressionRatio = compressionRatio
        }

        /// `true` for the formats this workspace encodes: PNG, JPEG, WebP, AVIF and JPEG XL (not HEIF).
        public static func isSupported(type: AssetType) -> Bool {
            [AssetType.png, .jpeg, .webp, .avif, .jxl].contains(type)
        }

        /// The encoded image, or `nil` if the type is unsupported or encoding fails.
        public func encode(_ image: PlatformImage) -> Data? {
            switch type {
            case .png: ImageEncoders.PNG().encode(image)
            case .jpeg: ImageEncoders.JPEG(quality: compressionRatio).encode(image)
            case .webp: ImageEncoders.WebP(quality: compressionRatio).encode(image)
            case .avif: ImageEncoders.AVIF(quality: compressionRatio).encode(image)
            case .jxl: ImageEncoders.JXL(quality: compressionRatio).encode(image)
            default: nil
            }
        }
    }
}

extension ImageEncoding where Self == ImageEncoders.ImageIO {
    /// An encoder to `type` (see ``ImageEncoders/ImageIO``), where an `ImageEncoding` is expected.
    public static func imageIO(type: AssetType, compressionRatio: Float = 0.8) -> ImageEncoders.ImageIO {
        ImageEncoders.ImageIO(type: type, compressionRatio: compressionRatio)
    }
}
