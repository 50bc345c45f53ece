// Nuke 13.2's spellings that Nuke's main branch (Nuke 14) removed, kept so that code written for the latest
// release compiles unchanged. Each says what to use instead; see Porting.md for what of 13.2 can't be accepted.

/// Nuke 13.2's name of ``ImagePipeline/Delegate``; the same protocol.
@available(*, deprecated, renamed: "ImagePipeline.Delegate")
public typealias ImagePipelineDelegate = ImagePipeline.Delegate

extension ImageRequest {
    /// Nuke 13.2's name of ``imageID``: reads and writes the same value.
    @available(*, deprecated, renamed: "imageID")
    public var imageId: String? {
        get { imageID }
        set { imageID = newValue }
    }
}

extension ImageRequest.UserInfoKey {
    /// Nuke 13.2's key for ``ImageRequest/thumbnail`` (a ``ImageRequest/ThumbnailOptions``).
    ///
    /// Read once, by the initializers that take `userInfo:`: a request made with this key has its
    /// ``ImageRequest/thumbnail`` set to the value. Setting the key in ``ImageRequest/userInfo`` later changes
    /// nothing; set ``ImageRequest/thumbnail`` instead.
    @available(*, deprecated, message: "Use `ImageRequest.thumbnail`.")
    public static let thumbnailKey: ImageRequest.UserInfoKey = nuke13Thumbnail

    /// The raw key behind ``thumbnailKey``, for the initializers that honour it without a deprecation warning.
    static let nuke13Thumbnail: ImageRequest.UserInfoKey = "github.com/kean/nuke/thumbnail"
}

extension ImagePipeline.Configuration {
    /// Nuke 13.2's limit for automatic downscaling while decoding, which Nuke 13.0.3 turned into a no-op and
    /// Nuke 14 removed. As in Nuke 13.2, it has no effect: it reads back what was set (`nil` by default) and
    /// nothing else reads it. Limit the decoded size per request with ``ImageRequest/thumbnail``.
    @available(*, deprecated, message: "Has no effect. Use `ImageRequest.thumbnail` to limit the decoded size.")
    public var maximumDecodedImageSize: Int? {
        get { nuke13MaximumDecodedImageSize }
        set { nuke13MaximumDecodedImageSize = newValue }
    }
}

extension ImageDecodingContext {
    /// Nuke 13.2's decoded-size limit for decoders, a no-op since Nuke 13.0.3 and removed in Nuke 14. It reads
    /// back what was set (`nil` by default, also in the contexts the pipeline makes) and nothing else reads it.
    @available(*, deprecated, message: "Has no effect. Use `request.thumbnail` to limit the decoded size.")
    public var maximumDecodedImageSize: Int? {
        get { nuke13MaximumDecodedImageSize }
        set { nuke13MaximumDecodedImageSize = newValue }
    }
}
