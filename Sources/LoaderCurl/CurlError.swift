public import Foundation
public import NukeCore

/// Why a ``CurlDataLoader`` transfer failed.
///
/// libcurl failures keep curl's own result code (`CURLcode`, as ``Code``) and message, so diagnostics read like
/// curl's (`curl: (28) Operation timed out after 1001 milliseconds with 0 bytes received`).
public enum CurlError: HTTPStatusCodeError, ConnectionRefusalError, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200–299 (after following redirects). The body is not delivered.
    case unacceptableStatusCode(Int, url: URL?)
    /// libcurl failed the transfer: `code` is its `CURLcode`, `message` its explanation.
    case transferFailed(code: Code, message: String, url: URL?)
    /// The request can't be sent: it has no URL, no host, or a scheme other than `http`/`https`.
    case invalidRequest(reason: String, url: URL?)
    /// ``CurlDataLoader/Configuration/allowsConnection`` refused the address curl tried last (`address`) and no
    /// connection was made, on the first request or a redirect hop; nothing was sent to it. When the last address
    /// tried was allowed and failed to connect, the error is curl's own.
    case connectionRefused(address: String, url: URL?)

    /// A libcurl result code (`CURLcode`). The named constants cover the failures callers usually branch on;
    /// any other code is kept as is (see `man libcurl-errors`).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric `CURLcode`.
        public let rawValue: Int

        /// Wraps a numeric `CURLcode`.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `CURLE_UNSUPPORTED_PROTOCOL` (1): a scheme curl may not use, including a redirect to one.
        public static let unsupportedProtocol = Code(rawValue: 1)
        /// `CURLE_URL_MALFORMAT` (3).
        public static let malformedURL = Code(rawValue: 3)
        /// `CURLE_COULDNT_RESOLVE_HOST` (6).
        public static let couldNotResolveHost = Code(rawValue: 6)
        /// `CURLE_COULDNT_CONNECT` (7), e.g. connection refused.
        public static let couldNotConnect = Code(rawValue: 7)
        /// `CURLE_WEIRD_SERVER_REPLY` (8): the server didn't speak HTTP.
        public static let weirdServerReply = Code(rawValue: 8)
        /// `CURLE_PARTIAL_FILE` (18): the body ended before the announced length.
        public static let partialFile = Code(rawValue: 18)
        /// `CURLE_OPERATION_TIMEDOUT` (28): connect, low-speed or total timeout.
        public static let operationTimedOut = Code(rawValue: 28)
        /// `CURLE_TOO_MANY_REDIRECTS` (47).
        public static let tooManyRedirects = Code(rawValue: 47)
        /// `CURLE_GOT_NOTHING` (52): the server closed the connection without answering.
        public static let gotNothing = Code(rawValue: 52)
        /// `CURLE_RECV_ERROR` (56): the connection failed while receiving (e.g. reset mid-body).
        public static let receiveError = Code(rawValue: 56)
        /// `CURLE_PEER_FAILED_VERIFICATION` (60): the server's TLS certificate was not trusted.
        public static let peerFailedVerification = Code(rawValue: 60)
        /// `CURLE_BAD_CONTENT_ENCODING` (61): a gzip/deflate body failed to decode.
        public static let badContentEncoding = Code(rawValue: 61)

        public var description: String { String(rawValue) }
    }

    /// The HTTP status of ``unacceptableStatusCode(_:url:)``, else `nil`.
    public var statusCode: Int? {
        if case let .unacceptableStatusCode(code, _) = self { return code }
        return nil
    }

    /// The HTTP status of ``unacceptableStatusCode(_:url:)``, else `nil` (`HTTPStatusCodeError`).
    public var httpStatusCode: Int? { statusCode }

    /// The curl result code of ``transferFailed(code:message:url:)``, else `nil`.
    public var code: Code? {
        if case let .transferFailed(code, _, _) = self { return code }
        return nil
    }

    /// The address of ``connectionRefused(address:url:)``, else `nil` (`ConnectionRefusalError`).
    public var refusedAddress: String? {
        if case let .connectionRefused(address, _) = self { return address }
        return nil
    }

    /// `true` when curl gave up because of a connect, low-speed or total timeout.
    public var isTimeout: Bool { code == .operationTimedOut }

    /// The URL the failing transfer was for (after redirects, when curl got that far).
    public var url: URL? {
        switch self {
        case let .unacceptableStatusCode(_, url), let .transferFailed(_, _, url), let .invalidRequest(_, url),
            let .connectionRefused(_, url):
            url
        }
    }

    public var description: String {
        let target = url.map { " (\($0.absoluteString))" } ?? ""
        switch self {
        case let .unacceptableStatusCode(status, _):
            return "HTTP status \(status) is not acceptable\(target)"
        case let .transferFailed(code, message, _):
            return "curl: (\(code.rawValue)) \(message)\(target)"
        case let .invalidRequest(reason, _):
            return "Invalid request: \(reason)\(target)"
        case let .connectionRefused(address, _):
            return "The connection to \(address) was refused by the loader's allowsConnection\(target)"
        }
    }
}
