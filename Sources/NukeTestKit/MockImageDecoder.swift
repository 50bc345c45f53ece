public import Foundation
public import NukeCore

/// Decodes any non-empty data into a 1×1 image whose RGBA bytes are the first 4 bytes of the data (zero
/// padded), so tests can tell images apart; counts decodes; can be told to fail.
///
/// The bytes are stored verbatim as premultiplied RGBA. The container's `ImageContainer.type` is
/// `AssetType(data)` and its `ImageContainer.data` is `nil`.
public struct MockImageDecoder: ImageDecoding {
    /// The errors the decoder throws.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// ``MockImageDecoder/decode(_:)`` was given empty data.
        case emptyData
        /// The decoder was created with ``MockImageDecoder/failing(counter:)``.
        case scriptedFailure
    }

    /// The key under which ``decode(_:)`` calls are counted; partial decodes use `"<name>.partial"`.
    public let name: String
    private let counter: CallCounter?
    private let isFailing: Bool

    /// Creates a decoder that counts ``decode(_:)`` calls in `counter` under `name`, and
    /// ``decodePartiallyDownloadedData(_:)`` calls under `"<name>.partial"`.
    public init(counter: CallCounter? = nil, name: String = "MockImageDecoder") {
        self.init(counter: counter, name: name, isFailing: false)
    }

    private init(counter: CallCounter?, name: String, isFailing: Bool) {
        self.counter = counter
        self.name = name
        self.isFailing = isFailing
    }

    /// A decoder whose ``decode(_:)`` always throws ``Error/scriptedFailure`` (still counted under
    /// `"MockImageDecoder"`) and which never produces previews.
    public static func failing(counter: CallCounter? = nil) -> MockImageDecoder {
        MockImageDecoder(counter: counter, name: "MockImageDecoder", isFailing: true)
    }

    /// Counts the call, then returns the 1×1 image made from the first 4 bytes of `data`.
    ///
    /// - Throws: ``Error/scriptedFailure`` for a failing decoder, else ``Error/emptyData`` if `data` is empty.
    public func decode(_ data: Data) throws -> ImageContainer {
        counter?.increment(name)
        if isFailing { throw Error.scriptedFailure }
        guard !data.isEmpty else { throw Error.emptyData }
        return ImageContainer(image: Self.image(from: data), type: AssetType(data))
    }

    /// Counts the call under `"<name>.partial"`, then returns a preview (`ImageContainer.isPreview` `true`)
    /// made like ``decode(_:)``'s image, or `nil` when `data` is empty or the decoder is failing.
    public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        counter?.increment("\(name).partial")
        guard !isFailing, !data.isEmpty else { return nil }
        return ImageContainer(image: Self.image(from: data), type: AssetType(data), isPreview: true)
    }

    private static func image(from data: Data) -> PlatformImage {
        var rgba = [UInt8](data.prefix(4))
        rgba += [UInt8](repeating: 0, count: 4 - rgba.count)
        // A 1×1 image with 4 bytes always fits, so this never throws.
        return (try? PlatformImage(width: 1, height: 1, rgba: rgba)) ?? PlatformImage()
    }
}
