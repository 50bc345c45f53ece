extension ImageProcessors {
    /// A processor made from a closure.
    ///
    /// ```swift
    /// let invert = ImageProcessors.Anonymous(id: "invert") { image in … }
    /// ```
    public struct Anonymous: ImageProcessing, CustomStringConvertible {
        /// Identifies the processor in cache keys; give different closures different ids.
        public let identifier: String
        private let closure: @Sendable (PlatformImage) -> PlatformImage?

        /// Creates a processor that runs `closure`; returning `nil` fails the request with
        /// ``ImagePipeline/Error/processingFailed(processor:context:error:)``.
        public init(id: String, _ closure: @escaping @Sendable (PlatformImage) -> PlatformImage?) {
            self.identifier = id
            self.closure = closure
        }

        public func process(_ image: PlatformImage) -> PlatformImage? {
            closure(image)
        }

        /// Nuke's description, `AnonymousProcessor(identifier: com.example/invert)`.
        public var description: String { "AnonymousProcessor(identifier: \(identifier))" }
    }

    /// Applies several processors in order, as one processor with one cache key.
    ///
    /// Prefer passing the processors to ``ImageRequest/processors`` directly, which lets requests share a
    /// common prefix of processors; use a composition to treat the group as one step.
    public struct Composition: ImageProcessing, Hashable, CustomStringConvertible {
        let processors: [any ImageProcessing]

        /// Creates a composition; the processors run in order.
        public init(_ processors: [any ImageProcessing]) {
            // Flatten nested compositions so equal pipelines have equal identities.
            self.processors = processors.flatMap { ($0 as? Composition)?.processors ?? [$0] }
        }

        public func process(_ image: PlatformImage) -> PlatformImage? {
            var image = image
            for processor in processors {
                guard let output = processor.process(image) else { return nil }
                image = output
            }
            return image
        }

        public func process(_ container: ImageContainer, context: ImageProcessingContext) throws -> ImageContainer {
            var container = container
            for processor in processors {
                container = try processor.process(container, context: context)
            }
            return container
        }

        public var identifier: String {
            processors.map(\.identifier).joined()
        }

        public func hash(into hasher: inout Hasher) {
            for processor in processors {
                hasher.combine(processor.hashableIdentifier)
            }
        }

        public static func == (lhs: Composition, rhs: Composition) -> Bool {
            lhs.processors.map(\.hashableIdentifier) == rhs.processors.map(\.hashableIdentifier)
        }

        /// Nuke's description: the processors as an array, for example
        /// `Composition(processors: [Circle(border: nil)])`.
        public var description: String {
            "Composition(processors: \(processors))"
        }
    }
}
