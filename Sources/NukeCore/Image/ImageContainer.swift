public import Foundation

/// An image together with what the pipeline knows about it.
///
/// Decoders create containers; processors transform them; caches store them.
public struct ImageContainer: Sendable {
    /// The decoded image.
    public var image: PlatformImage
    /// The format of the original data, when known.
    public var type: AssetType?
    /// `true` for a preview of a partially downloaded image; the final image replaces it.
    public var isPreview: Bool
    /// The original data, kept for formats that the pixels alone don't capture
    /// (animated images, vector images). `nil` for most still images, so the memory cache doesn't hold
    /// the data twice.
    public var data: Data?
    /// Anything a decoder or processor wants to attach.
    public var userInfo: [UserInfoKey: any Sendable]

    /// Creates a container.
    public init(
        image: PlatformImage,
        type: AssetType? = nil,
        isPreview: Bool = false,
        data: Data? = nil,
        userInfo: [UserInfoKey: any Sendable] = [:]
    ) {
        self.image = image
        self.type = type
        self.isPreview = isPreview
        self.data = data
        self.userInfo = userInfo
    }

    /// Returns a copy of the container with a different image, keeping the rest.
    public func map(_ transform: (PlatformImage) throws -> PlatformImage) rethrows -> ImageContainer {
        var copy = self
        copy.image = try transform(image)
        return copy
    }

    /// A key for ``userInfo``.
    public struct UserInfoKey: Hashable, ExpressibleByStringLiteral, Sendable {
        /// The key's name.
        public let rawValue: String

        /// Creates a key from its name.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public init(stringLiteral value: String) { self.rawValue = value }

        /// The scan number of a progressive JPEG preview (an `Int`).
        public static let scanNumberKey: UserInfoKey = "com.github/kean/nuke/scan-number"
    }
}
