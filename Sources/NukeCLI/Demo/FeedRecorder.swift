import Foundation
import Nuke

/// What happened to each cell of the feed: the image it showed, how long it waited, whether it scrolled away
/// before its image arrived. Written by the player and by task completions on other threads; thread-safe.
final class FeedRecorder: @unchecked Sendable {
    // @unchecked: every property is read and written only while `lock` is held.
    private let lock = NSLock()
    private var pending: [Int: Int] = [:]  // cell → its current appearance
    private var images: [Int: PlatformImage] = [:]
    private var latencies: [Double] = []
    private var nextAppearance = 0
    private(set) var appearances = 0
    private var cancellations = 0

    /// A cell became visible and requested its image; returns the appearance's id.
    func appeared(_ cell: Int) -> Int {
        lock.withLock {
            nextAppearance += 1
            appearances += 1
            pending[cell] = nextAppearance
            return nextAppearance
        }
    }

    /// The cell left the viewport. Returns `true` if its image hadn't arrived (the caller cancels the task).
    func disappeared(_ cell: Int) -> Bool {
        lock.withLock {
            guard pending.removeValue(forKey: cell) != nil else { return false }
            cancellations += 1
            return true
        }
    }

    /// The task of appearance `id` of `cell` finished `seconds` after the cell appeared.
    func finished(_ cell: Int, appearance id: Int, result: Result<ImageResponse, any Error>, seconds: Double) {
        lock.withLock {
            if case let .success(response) = result { images[cell] = response.image }
            guard pending[cell] == id else { return }
            pending[cell] = nil
            if case .success = result { latencies.append(seconds) }
        }
    }

    /// `true` while `cell` is waiting for its image.
    func isPending(_ cell: Int) -> Bool {
        lock.withLock { pending[cell] != nil }
    }

    struct Summary {
        var appearances: Int
        var cancellations: Int
        var latencies: [Double]
        var images: [Int: PlatformImage]
    }

    var summary: Summary {
        lock.withLock {
            Summary(appearances: appearances, cancellations: cancellations, latencies: latencies, images: images)
        }
    }
}
