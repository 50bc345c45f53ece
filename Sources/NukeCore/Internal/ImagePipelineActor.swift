/// The global actor that serialises every pipeline's task graph. Decoding, processing, loading and other
/// blocking work run off it; public API never requires callers to be on it.
@globalActor
public actor ImagePipelineActor {
    /// The actor's single instance.
    public static let shared = ImagePipelineActor()
}
