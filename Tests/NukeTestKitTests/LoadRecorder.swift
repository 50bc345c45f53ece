import Foundation
import NukeCore
@testable import NukeTestKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records the callbacks of one `loadData` call.
final class LoadRecorder: Sendable {
    enum Event: Sendable {
        case data(Data, URLResponse)
        case completion((any Error)?)
    }

    private struct State {
        var events: [Event] = []
        var completionWaiter: CheckedContinuation<Void, Never>?
        var isCompleted = false
    }

    private let state = LockedValueBox(State())

    var events: [Event] { state.withLock { $0.events } }

    var chunks: [Data] {
        events.compactMap { if case let .data(data, _) = $0 { data } else { nil } }
    }

    var responses: [URLResponse] {
        events.compactMap { if case let .data(_, response) = $0 { response } else { nil } }
    }

    var completions: [(any Error)?] {
        events.compactMap { if case let .completion(error) = $0 { .some(error) } else { nil } }
    }

    /// Starts a load on `loader` that records into this recorder.
    @discardableResult
    func start(_ loader: MockDataLoader, _ request: URLRequest) -> any Cancellable {
        loader.loadData(
            with: request,
            didReceiveData: { data, response in
                self.state.withLock { $0.events.append(.data(data, response)) }
            },
            completion: { error in
                let waiter = self.state.withLock { state in
                    state.events.append(.completion(error))
                    state.isCompleted = true
                    defer { state.completionWaiter = nil }
                    return state.completionWaiter
                }
                waiter?.resume()
            }
        )
    }

    @discardableResult
    func start(_ loader: MockDataLoader, _ url: URL) -> any Cancellable {
        start(loader, URLRequest(url: url))
    }

    /// Suspends until the first completion.
    func waitForCompletion() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isCompleted = state.withLock { state in
                if !state.isCompleted { state.completionWaiter = continuation }
                return state.isCompleted
            }
            if isCompleted { continuation.resume() }
        }
    }
}

/// Loads `url` and waits for completion.
func load(_ loader: MockDataLoader, _ url: URL) async -> LoadRecorder {
    let recorder = LoadRecorder()
    recorder.start(loader, url)
    await recorder.waitForCompletion()
    return recorder
}

/// Waits until every callback already queued on `loader`'s serial delivery queue has run, by loading a fresh
/// URL to completion (the loader must not be suspended).
func drain(_ loader: MockDataLoader) async {
    _ = await load(loader, Fixtures.url("drain-\(UUID().uuidString)"))
}

struct TestError: Error, Equatable {
    let id: Int
}
