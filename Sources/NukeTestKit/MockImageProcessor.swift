public import NukeCore

/// A processor that records its id in the container's userInfo and counts its calls.
///
/// It leaves the pixels unchanged. Equality and hashing use ``identifier`` only, so two processors with the
/// same id but different counters share a cache key.
public struct MockImageProcessor: ImageProcessing, Hashable {
    /// The `ImageContainer.userInfo` key of the ids of the mock processors applied to a container, in the
    /// order they were applied (a `[String]`).
    public static let processorIDsKey: ImageContainer.UserInfoKey = "nuketestkit.processorIDs"

    /// The id given at creation.
    public let identifier: String
    private let counter: CallCounter?

    /// Creates a processor that counts every call in `counter` under `id`.
    public init(id: String, counter: CallCounter? = nil) {
        self.identifier = id
        self.counter = counter
    }

    /// Counts the call and returns `image` unchanged.
    public func process(_ image: PlatformImage) -> PlatformImage? {
        counter?.increment(identifier)
        return image
    }

    /// Counts the call once and returns `container` with ``identifier`` appended to the `[String]` under
    /// ``processorIDsKey`` (a value of another type there is replaced).
    public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
        counter?.increment(identifier)
        var output = container
        let ids = container.userInfo[Self.processorIDsKey] as? [String] ?? []
        output.userInfo[Self.processorIDsKey] = ids + [identifier]
        return output
    }

    /// `true` when the identifiers are equal; counters are ignored.
    public static func == (lhs: MockImageProcessor, rhs: MockImageProcessor) -> Bool {
        lhs.identifier == rhs.identifier
    }

    /// Hashes ``identifier`` only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }
}
