/// Chooses a decoder for each image: codec plugins register a factory at start-up, and the pipeline asks
/// the registry for a decoder (by default through ``ImagePipeline/Configuration/makeImageDecoder``).
///
/// ```swift
/// ImageDecoderRegistry.shared.register { context in ImageDecoders.PNG(context: context) }
/// ```
///
/// Factories are asked latest-registered first; the first non-`nil` decoder wins. The registry is safe to
/// use from any thread and never calls a factory while holding its lock, so a factory may use the registry.
public final class ImageDecoderRegistry: Sendable {
    /// The registry used by default pipelines. Apps register their codecs here at start-up; tests should
    /// create their own registry instead.
    public static let shared = ImageDecoderRegistry()

    /// A factory: returns a decoder for the data in the context, or `nil` if it doesn't handle it.
    public typealias Factory = @Sendable (ImageDecodingContext) -> (any ImageDecoding)?

    /// Identifies a registration, to ``unregister(_:)`` it.
    public struct RegistrationToken: Hashable, Sendable {
        let id: Int
    }

    /// The earlier name of ``RegistrationToken``.
    public typealias Registration = RegistrationToken

    private struct State {
        var factories: [(id: Int, factory: Factory)] = []
        var nextID = 0
    }

    private let state = LockedValueBox(State())

    /// Creates an empty registry.
    public init() {}

    /// Adds a factory that is asked before every factory registered earlier.
    @discardableResult
    public func register(_ match: @escaping Factory) -> Registration {
        state.withLock { state in
            state.nextID += 1
            state.factories.append((state.nextID, match))
            return RegistrationToken(id: state.nextID)
        }
    }

    /// Removes a factory; unknown registrations are ignored.
    public func unregister(_ registration: Registration) {
        state.withLock { state in
            state.factories.removeAll { $0.id == registration.id }
        }
    }

    /// Removes all factories.
    public func clear() {
        state.withLock { $0.factories.removeAll() }
    }

    /// Returns a decoder from the latest-registered factory that handles `context`, or `nil`.
    public func decoder(for context: ImageDecodingContext) -> (any ImageDecoding)? {
        let factories = state.withLock { $0.factories }
        for entry in factories.reversed() {
            if let decoder = entry.factory(context) {
                return decoder
            }
        }
        return nil
    }
}
