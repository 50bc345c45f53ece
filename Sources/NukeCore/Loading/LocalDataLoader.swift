public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// Reads `file:` and `data:` URLs; the pipeline uses it for those schemes instead of the configured loader,
/// so local images work with no loader plugin.
///
/// Files are read off the caller's thread in chunks of ``chunkSize`` bytes (so progress is reported and
/// cancellation stops the read between chunks). `data:` URLs follow RFC 2397 (`data:[<mediatype>][;base64],…`).
/// Follows the ``DataLoading`` contract: `completion` is called exactly once, unless cancelled first.
public struct LocalDataLoader: DataLoading {
    /// The largest chunk passed to `didReceiveData`.
    public var chunkSize = 1 << 20

    /// Creates the loader.
    public init() {}

    /// `true` if the loader handles the URL's scheme (`file` or `data`).
    public static func canLoad(_ url: URL?) -> Bool {
        guard let scheme = url?.scheme?.lowercased() else { return false }
        return scheme == "file" || scheme == "data"
    }

    public func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Swift.Error)?) -> Void
    ) -> any Cancellable {
        let token = CancellationToken()
        let chunkSize = max(1, self.chunkSize)
        DispatchQueue.global(qos: .userInitiated).async {
            guard !token.isCancelled else { return }
            do {
                guard let url = request.url, Self.canLoad(url) else {
                    throw Error.unsupportedURL(request.url)
                }
                if url.scheme?.lowercased() == "data" {
                    let (data, mimeType) = try Self.decodeDataURL(url)
                    let response = URLResponse(
                        url: url, mimeType: mimeType, expectedContentLength: data.count, textEncodingName: nil)
                    if !data.isEmpty { didReceiveData(data, response) }
                } else {
                    try Self.readFile(at: url, chunkSize: chunkSize, token: token, didReceiveData: didReceiveData)
                }
                guard !token.isCancelled else { return }
                completion(nil)
            } catch {
                guard !token.isCancelled else { return }
                completion(error)
            }
        }
        return token
    }

    private static func readFile(
        at url: URL,
        chunkSize: Int,
        token: CancellationToken,
        didReceiveData: @Sendable (Data, URLResponse) -> Void
    ) throws {
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw Error.fileNotFound(path)
        }
        // Directories, devices (/dev/zero never ends) and pipes (block forever) are not images.
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw Error.notAFile(path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw Error.readFailed(path, reason: "cannot open")
        }
        defer { try? handle.close() }
        let size = (attributes[.size] as? Int) ?? -1
        let response = URLResponse(url: url, mimeType: nil, expectedContentLength: size, textEncodingName: nil)
        while !token.isCancelled {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkSize) ?? Data()
            } catch {
                throw Error.readFailed(path, reason: "\(error)")
            }
            if chunk.isEmpty { break }
            didReceiveData(chunk, response)
        }
    }

    /// Decodes a `data:` URL into its bytes and media type.
    static func decodeDataURL(_ url: URL) throws(Error) -> (Data, String) {
        let string = url.absoluteString
        guard let comma = string.firstIndex(of: ","), string.lowercased().hasPrefix("data:") else {
            throw .invalidDataURL("missing ','")
        }
        let header = string[string.index(string.startIndex, offsetBy: 5)..<comma]
        let payload = String(string[string.index(after: comma)...])
        var parameters = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let mimeType = parameters.first.flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "text/plain"
        guard let bytes = percentDecoded(payload.utf8) else {
            throw .invalidDataURL("invalid percent encoding")
        }
        guard isBase64 else { return (Data(bytes), mimeType) }
        let compact = String(decoding: bytes.filter { !isWhitespace($0) }, as: UTF8.self)
        guard let data = Data(base64Encoded: compact) else {
            throw .invalidDataURL("invalid base64")
        }
        return (data, mimeType)
    }

    /// Decodes `%XX` escapes into raw bytes (any octet, per RFC 2397); `nil` for a malformed escape.
    private static func percentDecoded(_ input: String.UTF8View) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var iterator = input.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            output.append(high << 4 | low)
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Why a local resource could not be read.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The URL is neither `file:` nor `data:`.
        case unsupportedURL(URL?)
        /// No file exists at the path.
        case fileNotFound(String)
        /// The path names a directory or something else that isn't a regular file.
        case notAFile(String)
        /// The file exists but could not be read.
        case readFailed(String, reason: String)
        /// The `data:` URL is malformed.
        case invalidDataURL(String)

        public var description: String {
            switch self {
            case let .unsupportedURL(url): "Not a file: or data: URL: \(url?.absoluteString ?? "nil")"
            case let .fileNotFound(path): "No such file: \(path)"
            case let .notAFile(path): "Not a regular file: \(path)"
            case let .readFailed(path, reason): "Failed to read \(path): \(reason)"
            case let .invalidDataURL(reason): "Invalid data: URL (\(reason))"
            }
        }
    }
}

/// A thread-safe cancellation flag.
final class CancellationToken: Cancellable {
    private let state = LockedValueBox(false)

    var isCancelled: Bool { state.snapshot }

    func cancel() { state.withLock { $0 = true } }
}
