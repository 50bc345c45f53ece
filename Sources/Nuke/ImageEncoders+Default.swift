public import Foundation
public import NukeCore

extension ImageEncoders {
    /// Encodes opaque images as JPEG (at ``compressionQuality``) and images with transparency as PNG — Nuke's
    /// default encoder, on this workspace's codecs.
    public struct Default: ImageEncoding {
        /// The JPEG quality for opaque images, 0…1. Default 0.8.
        public var compressionQuality: Float

        /// The earlier name of ``compressionQuality``.
        public var quality: Float {
            get { compressionQuality }
            set { compressionQuality = newValue }
        }

        /// Has no effect on Linux: there is no HEIF encoder. Default `false`.
        public var isHEIFPreferred = false

        /// Creates the encoder.
        public init(compressionQuality: Float = 0.8) {
            self.compressionQuality = compressionQuality
        }

        /// Creates the encoder (the earlier spelling of ``init(compressionQuality:)``).
        public init(quality: Float) {
            self.init(compressionQuality: quality)
        }

        /// JPEG for an opaque image, PNG otherwise; `nil` if encoding fails.
        public func encode(_ image: PlatformImage) -> Data? {
            image.isOpaque
                ? ImageEncoders.JPEG(quality: compressionQuality).encode(image) : ImageEncoders.PNG().encode(image)
        }
    }

    /// The earlier name of ``Default``.
    public typealias Automatic = Default
}

extension ImageEncoding where Self == ImageEncoders.Default {
    /// Nuke's default encoder: `.default(compressionQuality: 0.7)` where an `ImageEncoding` is expected.
    public static func `default`(compressionQuality: Float = 0.8) -> ImageEncoders.Default {
        ImageEncoders.Default(compressionQuality: compressionQuality)
    }
}
