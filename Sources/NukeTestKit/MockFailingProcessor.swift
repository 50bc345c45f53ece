public import NukeCore

/// A processor that always fails: ``process(_:)`` returns `nil`, so the default container processing throws
/// `ImageProcessingError.processingFailed`.
public struct MockFailingProcessor: ImageProcessing {
    /// The id given at creation.
    public let identifier: String

    /// Creates the processor; `id` identifies it in cache keys.
    public init(id: String = "failing") {
        self.identifier = id
    }

    /// Always returns `nil`.
    public func process(_ image: PlatformImage) -> PlatformImage? {
        nil
    }
}
