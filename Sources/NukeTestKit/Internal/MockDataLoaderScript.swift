import Foundation

/// What a ``MockDataLoader`` delivers for one URL.
enum MockDataLoaderScript: Sendable {
    /// A response: `data` split into chunks, unless `statusCode` is not 2xx.
    case response(data: Data, statusCode: Int, headers: [String: String])
    /// Completion with `error` and nothing else.
    case failure(any Error)
}
