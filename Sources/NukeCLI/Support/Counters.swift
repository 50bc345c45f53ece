import Foundation
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Thread-safe named counters: what the pipeline's parts did, for the reports.
final class Counters: @unchecked Sendable {
    // @unchecked: `values` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var values: [String: Int] = [:]

    /// Adds `amount` to counter `key`.
    func add(_ key: String, _ amount: Int = 1) {
        lock.withLock { values[key, default: 0] += amount }
    }

    /// The value of counter `key` (0 if never touched).
    subscript(key: String) -> Int {
        lock.withLock { values[key, default: 0] }
    }

    /// The counters whose names start with `prefix`, by the rest of their name.
    func values(withPrefix prefix: String) -> [String: Int] {
        lock.withLock {
            var result: [String: Int] = [:]
            for (key, value) in values where key.hasPrefix(prefix) {
                result[String(key.dropFirst(prefix.count))] = value
            }
            return result
        }
    }

    /// What makes two requests share a decode here: the URL and the thumbnail options.
    static func imageKey(_ request: ImageRequest) -> String {
        (request.url?.absoluteString ?? "") + " " + (request.thumbnail?.identifier ?? "")
    }

    static let downloads = "downloads"
    static let downloadBytes = "download bytes"
    static let decodes = "decodes"
}

/// Wraps a real loader and counts what reaches it: every `loadData` is one download, every chunk adds to the
/// byte count. `file:` and `data:` URLs never reach a loader (the pipeline reads them itself).
struct CountingDataLoader: DataLoading {
    let base: any DataLoading
    let counters: Counters

    func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        counters.add(Counters.downloads)
        let counters = counters
        return base.loadData(
            with: request,
            didReceiveData: { data, response in
                counters.add(Counters.downloadBytes, data.count)
                didReceiveData(data, response)
            },
            completion: completion)
    }
}

/// Wraps a decoder and counts complete decodes (previews are not counted).
struct CountingDecoder: ImageDecoding {
    let base: any ImageDecoding
    let counters: Counters
    /// The ``Counters/imageKey(_:)`` of the image being decoded.
    let key: String

    func decode(_ data: Data) throws -> ImageContainer {
        counters.add(Counters.decodes)
        counters.add("decode " + key)
        return try base.decode(data)
    }

    func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        base.decodePartiallyDownloadedData(data)
    }
}

/// The text of a failure: the error's description, naming the real decoder rather than the counting wrapper.
func failureDescription(_ error: any Error) -> String {
    if case let ImagePipeline.Error.decodingFailed(decoder as CountingDecoder, context, underlying) = error {
        return ImagePipeline.Error.decodingFailed(decoder: decoder.base, context: context, error: underlying)
            .description
    }
    return "\(error)"
}
