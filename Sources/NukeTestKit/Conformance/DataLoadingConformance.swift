public import Foundation
public import NukeCore

/// The conformance suite for `DataLoading` plugins: checks a loader against the protocol's contract over real
/// HTTP, using its own ``LoopbackHTTPServer`` on `127.0.0.1`.
///
/// Run it from your own tests (Swift Testing `@Test`s can't be shared across packages, so each check is an
/// `async throws` function that throws a ``Failure`` describing what went wrong):
///
/// ```swift
/// @Test(arguments: DataLoadingConformance.Check.allCases)
/// func conformance(_ check: DataLoadingConformance.Check) async throws {
///     var options = DataLoadingConformance.Options()
///     options.statusCode = { ($0 as? MyLoader.Error)?.statusCode }
///     let suite = try DataLoadingConformance(loader: MyLoader(), options: options)
///     try await suite.run(check)
/// }
/// ```
///
/// What is checked (see ``Check``): byte-exact bodies, response metadata, compressed bodies, streaming (chunks
/// arrive before the body ends), `completion` exactly once, cancellation (no callback starts after `cancel()`
/// returned — one already under way may finish — except possibly a completion with an error; the transfer
/// stops), non-2xx status errors, the redirect policy
/// (chains followed; loops, `file:` and `ftp:` targets refused), idle timeouts, 100 concurrent transfers, a
/// large streamed body, request fidelity (headers, `HEAD`, `Range`), faults (bodies cut short, garbage), and
/// `304 Not Modified` delivered as a response.
///
/// Every wait is bounded by ``Options/timeout``. Checks that must observe that *nothing* happens (no callback
/// after completion or cancellation) watch for ``Options/quietPeriod``.
public struct DataLoadingConformance: Sendable {
    /// The loader under test.
    public let loader: any DataLoading
    /// The suite's server (its routes are ``Fixtures``); shut down when the suite is released.
    public let server: LoopbackHTTPServer
    /// How checks run.
    public let options: Options

    /// Tuning for a run.
    public struct Options: Sendable {
        /// Extracts the HTTP status code from the loader's error for a non-2xx response, so the status check
        /// can compare it; the default finds none, and the check then only requires an error.
        public var statusCode: @Sendable (any Error) -> Int? = { _ in nil }
        /// The bound on every wait for a callback (default 20 s).
        public var timeout: Duration = .seconds(20)
        /// How long to watch for callbacks that must not come (default 300 ms).
        public var quietPeriod: Duration = .milliseconds(300)
        /// The `timeoutInterval` of requests in the timeout check, in seconds (default 1).
        public var requestTimeout: TimeInterval = 1
        /// The number of simultaneous transfers in the concurrency check (default 100).
        public var concurrentTransferCount = 100
        /// The body size of the large-body check (default 16 MB).
        public var largeBodySize = 16 << 20

        /// The default options.
        public init() {}
    }

    /// A check failed; ``description`` says what the loader did.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let description: String

        /// Creates a failure with a message.
        public init(_ description: String) { self.description = description }
    }

    /// The individual checks.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Bodies arrive byte for byte: with `Content-Length`, chunked, empty, 1 MB.
        case bodies
        /// The response is an `HTTPURLResponse` with the status, headers, URL and `expectedContentLength`.
        case responseMetadata
        /// `Content-Encoding: gzip` and `deflate` bodies are delivered decoded.
        case compressedBodies
        /// Chunks are delivered as they arrive, before the body is complete.
        case streaming
        /// `completion` is called exactly once, last, for successes and failures alike; callbacks of one load
        /// never overlap.
        case completionCalledOnce
        /// Cancelling right after starting (and after completion): nothing but possibly a completion with an
        /// error, or the one callback that was already under way.
        case cancellationBeforeResponse
        /// Cancelling mid-transfer — from inside a callback (then nothing but a completion with an error may
        /// follow) and from another thread (then at most the callback already under way) — and the server sees
        /// the client leave.
        case cancellationDuringTransfer
        /// 404 and 500 (and a 3xx without `Location`) fail, with the status code if ``Options/statusCode``
        /// can read it, and deliver none of the error page's bytes (the response alone, as an empty chunk, may come
        /// first).
        case statusCodeErrors
        /// 301/302/307 chains are followed to the final body; loops and redirects to `file:`/`ftp:` fail.
        case redirects
        /// A server that stalls (before or during the body) makes the load fail after the request's
        /// `timeoutInterval`.
        case timeouts
        /// ``Options/concurrentTransferCount`` transfers at once, each with its own byte-exact body.
        case concurrentTransfers
        /// A ``Options/largeBodySize`` body streams through intact.
        case largeBody
        /// The request's headers reach the server; `HEAD` and `Range` requests work.
        case requestFidelity
        /// A body cut short (dropped connection, `Content-Length` larger than the body) or a non-HTTP reply is
        /// an error, never a success.
        case faults
        /// `304 Not Modified`, the answer to a conditional request the pipeline makes to revalidate its disk cache,
        /// is a response, not an error: exactly one empty chunk with the `HTTPURLResponse` (status 304), then
        /// `completion(nil)`. The request's `If-None-Match` reaches the server, and the loader adds no conditional
        /// headers of its own to requests without them. A scripted ``MockDataLoader`` passes it too (see
        /// ``DataLoadingConformance/script(_:)``).
        case notModified

        /// `true` for the nine checks that need a loader that really speaks HTTP to the suite's server on
        /// `127.0.0.1` (response metadata, compression, streaming, cancellation mid-transfer, redirects, timeouts,
        /// large bodies, request fidelity, `304 Not Modified`). The other six (``withoutNetwork``) only need the loader to answer the suite's
        /// URLs as listed in ``DataLoadingConformance/scriptedAnswers``, so a loader that doesn't speak HTTP (one
        /// that reads memory, a database or an archive) can pass them.
        public var requiresNetwork: Bool {
            switch self {
            case .bodies, .completionCalledOnce, .cancellationBeforeResponse, .statusCodeErrors,
                .concurrentTransfers, .faults:
                false
            default:
                true
            }
        }

        /// The checks whose ``requiresNetwork`` is `false`: what a loader that doesn't speak HTTP runs, after
        /// seeding itself with ``DataLoadingConformance/scriptedAnswers``:
        ///
        /// ```swift
        /// @Test(arguments: DataLoadingConformance.Check.withoutNetwork)
        /// func conformance(_ check: DataLoadingConformance.Check) async throws {
        ///     let loader = MyInMemoryLoader()
        ///     let suite = try DataLoadingConformance(loader: loader)
        ///     loader.store(suite.scriptedAnswers)
        ///     try await suite.run(check)
        /// }
        /// ```
        public static let withoutNetwork: [Check] = allCases.filter { !$0.requiresNetwork }

        public var description: String { rawValue }
    }

    /// Creates the suite for `loader`, starting its server.
    ///
    /// - Throws: If the server can't listen.
    public init(loader: any DataLoading, options: Options = Options()) throws {
        self.loader = loader
        self.options = options
        server = try LoopbackHTTPServer()
        for (path, route) in Fixtures.routes(port: server.port) {
            server.setRoute(route, for: path)
        }
    }

    /// Runs one check.
    ///
    /// - Throws: ``Failure`` describing the first problem found. When the suite's server has received no request
    ///   at all and that is the cause, the failure also says so: for a check that ``Check/requiresNetwork``, that
    ///   a loader that doesn't speak HTTP runs only ``Check/withoutNetwork``; for one of those, that the loader must
    ///   answer the suite's URLs as ``scriptedAnswers`` lists — said only when it doesn't (one more load of
    ///   `/static` tells), so a correctly seeded loader's failure names its defect alone.
    public func run(_ check: Check) async throws {
        do {
            try await runChecking(check)
        } catch let failure as Failure where server.requests.isEmpty {
            guard let hint = await noRequestHint(for: check) else { throw failure }
            throw Failure(
                "\(failure.description) (the suite's server at \(server.url("/")) received no request: \(hint))")
        }
    }

    private func runChecking(_ check: Check) async throws {
        switch check {
        case .bodies: try await checkBodies()
        case .responseMetadata: try await checkResponseMetadata()
        case .compressedBodies: try await checkCompressedBodies()
        case .streaming: try await checkStreaming()
        case .completionCalledOnce: try await checkCompletionCalledOnce()
        case .cancellationBeforeResponse: try await checkCancellationBeforeResponse()
        case .cancellationDuringTransfer: try await checkCancellationDuringTransfer()
        case .statusCodeErrors: try await checkStatusCodeErrors()
        case .redirects: try await checkRedirects()
        case .timeouts: try await checkTimeouts()
        case .concurrentTransfers: try await checkConcurrentTransfers()
        case .largeBody: try await checkLargeBody()
        case .requestFidelity: try await checkRequestFidelity()
        case .faults: try await checkFaults()
        case .notModified: try await checkNotModified()
        }
    }

    /// Runs `checks` (default: all) one after another and throws one ``Failure`` listing every failed check.
    public func runAll(_ checks: [Check] = Check.allCases) async throws {
        var failures: [String] = []
        for check in checks {
            do {
                try await run(check)
            } catch {
                failures.append("\(check): \(error)")
            }
        }
        guard failures.isEmpty else {
            throw Failure("\(failures.count) of \(checks.count) checks failed:\n" + failures.joined(separator: "\n"))
        }
    }

    /// The URL of `path` on the suite's server.
    public func url(_ path: String) -> URL { server.url(path) }
}
