/// Where a pipeline asks for a decoder, so that a "no decoder" error
/// (``ImagePipeline/Error/decoderNotRegistered(context:)``) tells the user where to add one.
enum ImageDecoderLookup: Sendable, Equatable {
    /// The configuration's default ``ImagePipeline/Configuration/makeImageDecoder``, which asks
    /// ``ImageDecoderRegistry/shared``.
    case sharedRegistry
    /// A ``ImagePipeline/Configuration/makeImageDecoder`` the app set (its own registry, or any closure).
    case configuration
    /// A custom ``ImagePipeline/Delegate``'s `imageDecoder(for:pipeline:)` (by default it calls the
    /// configuration's ``ImagePipeline/Configuration/makeImageDecoder``).
    case delegate

    /// Where to add a decoder, as the end of the error's description.
    var advice: String {
        switch self {
        case .sharedRegistry:
            "register a codec plugin with ImageDecoderRegistry.shared.register(…)"
        case .configuration:
            "the pipeline's ImagePipeline.Configuration.makeImageDecoder returned nil for it: add a decoder to "
                + "the registry or closure it uses"
        case .delegate:
            "the pipeline delegate's imageDecoder(for:pipeline:) returned nil for it (by default it calls "
                + "ImagePipeline.Configuration.makeImageDecoder): add a decoder there"
        }
    }
}
