/// Why the service refused or failed a request: each case has the HTTP status it is answered with and a short
/// sentence for the plain-text body, which names the cause (the option, the source, the limit).
public struct ServeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure, which decides the status.
    public enum Kind: Sendable, Hashable {
        /// The URL or its options are malformed or unknown: `400`.
        case badRequest
        /// The signature is missing or wrong, or the source is not allowed: `403`.
        case forbidden
        /// The source does not exist (the origin answered 404, or no such local file): `404`.
        case notFound
        /// The method is not `GET` or `HEAD`: `405`.
        case methodNotAllowed
        /// The source is larger than the byte limit: `413`.
        case sourceTooLarge
        /// The source or the result is over a limit (pixels, dimensions, frames): `422`.
        case overLimit
        /// The source is not an image a registered decoder reads: `415`.
        case unsupportedFormat
        /// The work queue is full: `429`.
        case tooManyRequests
        /// No worker was free within the time a request may wait: `503`.
        case unavailable
        /// The origin failed (an error status, a refused connection, a bad response): `502`.
        case badGateway
        /// The origin or the processing took longer than allowed: `504`.
        case timeout
        /// A failure of the service itself: `500`.
        case internalError
    }

    /// What kind of failure.
    public var kind: Kind
    /// The sentence sent as the body, without a trailing newline.
    public var message: String

    /// Makes an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The HTTP status the error is answered with.
    public var status: Int {
        switch kind {
        case .badRequest: 400
        case .forbidden: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .sourceTooLarge: 413
        case .overLimit: 422
        case .unsupportedFormat: 415
        case .tooManyRequests: 429
        case .unavailable: 503
        case .badGateway: 502
        case .timeout: 504
        case .internalError: 500
        }
    }

    public var description: String { message }
}
