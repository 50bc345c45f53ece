import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NukeCore
import NukeTestKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import LoaderCurl

@Suite("CurlDataLoader lifecycle")
struct CurlLifecycleTests {
    @Test func cancelRemovesTheTransferAndClosesItsConnection() async throws {
        // Given a transfer stalled mid-body
        let server = try LoopbackHTTPServer(routes: ["/stall": .stall(afterSending: Data(count: 100))])
        let loader = CurlDataLoader()
        let engine = try #require(loader.engine)
        var request = URLRequest(url: server.url("/stall"))
        request.timeoutInterval = 3600  // The stall must outlast the test, whatever the machine's load.
        let load = RecordedLoad(loader: loader, request: request)
        try await load.waitForFirstChunk()
        #expect(engine.transferCount == 1)

        // When it's cancelled
        load.cancel()

        // Then curl drops it, the server sees the client leave, and no callback follows
        try await server.waitUntil("the client to leave") { $0.abortedResponses == 1 && $0.openConnections == 0 }
        #expect(engine.transferCount == 0)
        #expect(load.completionCount == 0)
        #expect(load.violations.isEmpty)
    }

    @Test func transfersCancelledBeforeTheLoopTakesThemNeverReachTheServer() async throws {
        // Given a loop thread held inside a callback of another transfer
        let server = try LoopbackHTTPServer(routes: ["/hold": .data(Data("h".utf8)), "/a": .data(Data("a".utf8))])
        let loader = CurlDataLoader()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        _ = loader.loadData(
            with: URLRequest(url: server.url("/hold")),
            didReceiveData: { _, _ in
                entered.signal()
                release.wait()
            }, completion: { _ in })
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                entered.wait()
                continuation.resume()
            }
        }

        // When 50 loads start and are cancelled while the loop can't take them, then the loop is released
        let loads = (0..<50).map { _ in RecordedLoad(loader: loader, url: server.url("/a")) }
        for load in loads { load.cancel() }
        release.signal()
        let last = try await load(loader, server.url("/hold"))

        // Then none of them reached curl or the server, and none called back
        #expect(last.succeeded)
        #expect(server.requests(for: "/a").isEmpty)
        #expect(loads.allSatisfy { $0.completionCount == 0 && $0.chunkCount == 0 && $0.violations.isEmpty })
        #expect(loader.engine?.transferCount == 0)
    }

    @Test func callbacksRunOnTheLoopThread() async throws {
        // Given a loader
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("a".utf8))])
        let loader = CurlDataLoader()
        let threads = CallbackThreads()

        // When two loads complete
        for _ in 0..<2 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                _ = loader.loadData(
                    with: URLRequest(url: server.url("/a")),
                    didReceiveData: { _, _ in threads.record() },
                    completion: { _ in
                        threads.record()
                        continuation.resume()
                    })
            }
        }

        // Then every callback ran on the loader's own loop thread
        let loopThread = try #require(loader.engine?.loopThread)
        #expect(threads.all.count == 4)
        #expect(threads.all.allSatisfy { pthread_equal($0, loopThread) != 0 })
    }

    @Test func loadsStartedFromInsideACallbackRun() async throws {
        // Given a completion handler that starts the next load (re-entering the loader on its own thread)
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("a".utf8))])
        let loader = CurlDataLoader()
        let url = server.url("/a")

        // When a chain of five loads runs that way
        let completed = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            @Sendable func chain(_ remaining: Int) {
                _ = loader.loadData(
                    with: URLRequest(url: url), didReceiveData: { _, _ in },
                    completion: { error in
                        if error != nil || remaining == 1 {
                            continuation.resume(returning: 5 - remaining + (error == nil ? 1 : 0))
                        } else {
                            chain(remaining - 1)
                        }
                    })
            }
            chain(5)
        }

        // Then all five completed
        #expect(completed == 5)
        #expect(server.requests.count == 5)
    }

    @Test func releasingTheLoaderLetsRunningTransfersFinishThenStopsTheThread() async throws {
        // Given a transfer whose body arrives slowly
        let chunks = (0..<5).map { _ in Data("chunk".utf8) }
        let server = try LoopbackHTTPServer(routes: ["/slow": .chunked(chunks, delay: .milliseconds(30))])
        var loader: CurlDataLoader? = CurlDataLoader()
        let engine = try #require(loader?.engine)
        let load = RecordedLoad(loader: try #require(loader), url: server.url("/slow"))

        // When the loader is released mid-transfer
        loader = nil

        // Then the transfer still completes and the loop thread exits afterwards
        try await load.waitForCompletion()
        #expect(load.succeeded)
        #expect(load.data == chunks.reduce(Data(), +))
        await engine.waitUntilStopped()
        #expect(engine.transferCount == 0)
    }

    @Test func aLoaderThatNeverLoadedStartsNoThread() async throws {
        // Given a loader that is created and released without loading
        var loader: CurlDataLoader? = CurlDataLoader()
        let engine = try #require(loader?.engine)

        // When it's released
        loader = nil

        // Then its engine is stopped at once
        await engine.waitUntilStopped()
    }

    @Test func thousandTransfersLeakNoSocketsOrThreads() async throws {
        // Given a loader limited to six transfers per host, and a server
        let server = try LoopbackHTTPServer(routes: ["/p": .pattern()])
        var configuration = CurlDataLoader.Configuration()
        configuration.maximumConnectionsPerHost = 6
        var loader: CurlDataLoader? = CurlDataLoader(configuration: configuration)
        let engine = try #require(loader?.engine)
        #expect(clientSocketCount(toPort: server.port) == 0)

        // When 1,000 transfers run, 100 at a time
        for batch in 0..<10 {
            let loads = (0..<100).map { index in
                let start = batch * 100 + index
                return RecordedLoad(
                    loader: loader!, url: server.url("/p?size=2000&start=\(start)"),
                    storage: .verifyPattern(start: start))
            }
            for load in loads {
                try await load.waitForCompletion()
                #expect(
                    load.succeeded && load.byteCount == 2000 && load.matchesPattern, "\(String(describing: load.error))"
                )
            }
        }
        let openDuringUse = clientSocketCount(toPort: server.port)

        // Then a handful of connections served them all, and releasing the loader closes every socket and
        // stops its thread
        #expect(openDuringUse > 0 && openDuringUse <= 6)
        #expect(server.statistics.acceptedConnections <= 6 * 10)
        loader = nil
        await engine.waitUntilStopped()
        try await server.waitForAllConnectionsToClose()
        #expect(clientSocketCount(toPort: server.port) == 0)
    }

    @Test func hundredMegabytesStreamThroughWithoutBuffering() async throws {
        // Given a 100 MB body generated on the fly by the server
        let size = 100 << 20
        let server = try LoopbackHTTPServer(routes: ["/huge": .pattern(size: size)])

        // When it's loaded, checking each chunk as it arrives and keeping none
        let result = try await load(
            CurlDataLoader(), URLRequest(url: server.url("/huge")), storage: .verifyPattern(start: 0))

        // Then every byte arrived in order, in chunks of at most 1 MB
        #expect(result.succeeded)
        #expect(result.byteCount == size)
        #expect(result.matchesPattern)
        #expect(result.chunkCount >= 100 && result.largestChunkSize <= 1 << 20)
        #expect(result.httpResponse?.expectedContentLength == Int64(size))
    }

    @Test func independentLoadersDoNotShareConnections() async throws {
        // Given two loaders
        let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("a".utf8))])
        let first = CurlDataLoader()
        let second = CurlDataLoader()

        // When each loads twice
        for loader in [first, second, first, second] {
            _ = try await load(loader, server.url("/a"))
        }

        // Then each kept its own connection
        #expect(Set(server.requests.map(\.connectionID)).count == 2)
    }
}

/// Records the threads that call `record()`.
private final class CallbackThreads: @unchecked Sendable {
    // @unchecked: `storage` is only accessed under `lock`.
    private let lock = NSLock()
    private var storage: [pthread_t] = []

    func record() { lock.withLock { storage.append(pthread_self()) } }
    var all: [pthread_t] { lock.withLock { storage } }
}
