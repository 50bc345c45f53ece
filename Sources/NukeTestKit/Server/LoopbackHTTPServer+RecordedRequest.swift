public import Foundation

extension LoopbackHTTPServer {
    /// A request as the server received it, for assertions.
    public struct RecordedRequest: Sendable, CustomStringConvertible {
        /// `GET`, `HEAD`, …
        public let method: String
        /// The request target as sent, e.g. `/image.png?size=10`.
        public let target: String
        /// `HTTP/1.1` or `HTTP/1.0`.
        public let httpVersion: String
        /// The header fields in the order received, names as sent.
        public let headers: [(name: String, value: String)]
        /// The request body (read according to `Content-Length`).
        public let body: Data
        /// Which connection carried the request (1 for the first one the server accepted, …).
        public let connectionID: Int
        /// The request's position on its connection (1 for the first); above 1 means keep-alive reuse.
        public let indexOnConnection: Int

        /// The path of ``target`` without the query.
        public var path: String {
            String(target.prefix { $0 != "?" })
        }

        /// The query items of ``target``, by name (the last value wins).
        public var queryItems: [String: String] {
            guard let question = target.firstIndex(of: "?") else { return [:] }
            var items: [String: String] = [:]
            for pair in target[target.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                let name = parts[0].removingPercentEncoding ?? parts[0]
                items[name] = parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : ""
            }
            return items
        }

        /// The value of the first header named `name` (case-insensitive), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The `Range` header, if any.
        public var range: String? { header("Range") }

        public var description: String {
            "\(method) \(target) (connection \(connectionID), request \(indexOnConnection))"
        }
    }

    /// Counters of what the server has seen so far.
    public struct Statistics: Sendable, Equatable {
        /// Requests received (the length of ``LoopbackHTTPServer/requests``).
        public var requestCount = 0
        /// Connections accepted.
        public var acceptedConnections = 0
        /// Connections currently open.
        public var openConnections = 0
        /// Responses the client cut short: it closed the connection while the server was sending, stalling or
        /// pausing between chunks. A loader that cancels promptly makes this grow.
        public var abortedResponses = 0
    }
}
