import NukeCore
import Foundation

/// A continuation that can be resumed from several places (an event and a timeout); only the first resume
/// counts.
final class OnceContinuation: Sendable {
    private let continuation: LockedValueBox<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = LockedValueBox(continuation)
    }

    /// Resumes the continuation if nobody did yet; returns whether this call resumed it.
    @discardableResult
    func resume() -> Bool {
        let continuation = self.continuation.withLock { value in
            defer { value = nil }
            return value
        }
        continuation?.resume()
        return continuation != nil
    }
}

extension Duration {
    /// The duration in seconds.
    var timeInterval: TimeInterval {
        let components = components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
