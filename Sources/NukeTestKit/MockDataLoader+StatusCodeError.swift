public import NukeCore

extension MockDataLoader {
    /// The error a ``MockDataLoader`` completes with when the scripted status code is not 2xx.
    public struct StatusCodeError: HTTPStatusCodeError, Equatable, Sendable, CustomStringConvertible {
        /// The scripted HTTP status code.
        public let statusCode: Int

        /// ``statusCode`` (`HTTPStatusCodeError`).
        public var httpStatusCode: Int? { statusCode }

        /// Creates the error for `statusCode`.
        public init(statusCode: Int) {
            self.statusCode = statusCode
        }

        /// A message naming the status code.
        public var description: String {
            "MockDataLoader: unacceptable HTTP status code \(statusCode)"
        }
    }
}
