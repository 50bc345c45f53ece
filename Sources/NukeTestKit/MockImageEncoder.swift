public import Foundation
public import NukeCore

/// An `ImageEncoding` that returns fixed data for any image and counts its calls.
public struct MockImageEncoder: ImageEncoding {
    /// The key under which ``encode(_:)`` calls are counted.
    public static let counterKey = "MockImageEncoder"

    /// What every ``encode(_:)`` call returns; `nil` simulates an image that can't be encoded.
    public let result: Data?
    private let counter: CallCounter?

    /// Creates an encoder that returns `result` (by default the bytes of `"MOCK"`) and counts calls in
    /// `counter` under ``counterKey``.
    public init(result: Data? = Data([0x4D, 0x4F, 0x43, 0x4B]), counter: CallCounter? = nil) {
        self.result = result
        self.counter = counter
    }

    /// Counts the call and returns ``result``, whatever the image. The container variant of the protocol
    /// calls this once.
    public func encode(_ image: PlatformImage) -> Data? {
        counter?.increment(Self.counterKey)
        return result
    }
}
