public import Foundation

extension DataLoadingConformance {
    /// The suite's routes and the bodies they serve.
    public enum Fixtures {
        /// 1000 bytes with `Content-Length`, `Content-Type: image/png` and `X-Conformance: static`.
        public static let staticBody = FixturePattern.bytes(in: 0..<1000)
        /// The pieces of the chunked body; the body is their concatenation.
        public static let chunks = [100, 1, 4096, 33_000, 7].reduce(into: [Data]()) { chunks, size in
            let start = 5000 + chunks.reduce(0) { $0 + $1.count }
            chunks.append(FixturePattern.bytes(in: start..<(start + size)))
        }
        /// A 1 MB body with `Content-Length`.
        public static let binaryBody = FixturePattern.bytes(in: 20_000..<(20_000 + (1 << 20)))
        /// The decoded body of the gzip and deflate routes (text, 20 KB).
        public static let textBody = Data(String(repeating: "Nuke conformance text body. ", count: 740).utf8)
        /// The prefix sent before the server stalls (of a body announced as 1 MB).
        public static let stallPrefix = FixturePattern.bytes(in: 0..<1000)
        /// The body the faulty routes are cut from (10 000 bytes).
        public static let faultBody = FixturePattern.bytes(in: 0..<10_000)
        /// The resource served with `ETag` and `Range` support.
        public static let resourceBody = FixturePattern.bytes(in: 3..<10_003)
        /// The resource's `ETag`.
        public static let resourceETag = "\"conformance-v1\""
        /// The `ETag` of `/not-modified`, which always answers `304 Not Modified` with it.
        public static let notModifiedETag = "\"conformance-unchanged\""

        /// The paths of routes whose loads succeed with these bodies (no network behaviour needed).
        public static let successfulBodies: [String: Data] = [
            "/static": staticBody, "/empty": Data(), "/chunked": chunks.reduce(Data(), +), "/binary": binaryBody,
        ]

        /// The paths of routes answered with these statuses.
        public static let statusRoutes: [String: Int] = [
            "/status/404": 404, "/status/500": 500, "/status/302-without-location": 302,
        ]

        /// The paths of faulty routes (each load must fail).
        public static let faultRoutes = ["/fault/drop", "/fault/short-body", "/fault/garbage"]

        /// The pattern URL path and query of transfer `index` in the concurrency check.
        public static func concurrentPath(_ index: Int) -> String {
            "/pattern?size=\(1000 + index * 37)&start=\(index * 9973)"
        }

        /// The gap between the chunks of `/slow-chunks`: long enough that a loader delivers them separately, and
        /// longer under ThreadSanitizer, where a loaded machine can keep a loader's thread from running for longer.
        static var slowChunkDelay: Duration {
            Sanitizers.isThreadSanitizerActive ? .milliseconds(250) : .milliseconds(40)
        }

        static func routes(port: Int) -> [String: LoopbackHTTPServer.Route] {
            [
                "/static": .data(staticBody, headers: ["Content-Type": "image/png", "X-Conformance": "static"]),
                "/empty": .data(Data()),
                "/chunked": .chunked(chunks),
                "/binary": .data(binaryBody),
                "/gzip": .gzip(textBody, headers: ["Content-Type": "text/plain"]),
                "/deflate": .deflate(textBody, headers: ["Content-Type": "text/plain"]),
                "/slow-chunks": .chunked(chunks, delay: slowChunkDelay),
                "/stall-after-prefix": .stall(afterSending: stallPrefix, declaredLength: 1 << 20),
                "/stall": .stall,
                "/status/404": .status(404),
                "/status/500": .status(500),
                "/status/302-without-location": .data(Data(), status: 302),
                "/redirect/301": .redirect(to: "/redirect/302", status: 301),
                "/redirect/302": .redirect(to: "/redirect/307", status: 302),
                "/redirect/307": .redirect(to: "/static", status: 307),
                "/redirect/loop-a": .redirect(to: "/redirect/loop-b"),
                "/redirect/loop-b": .redirect(to: "/redirect/loop-a"),
                "/redirect/to-file": .redirect(to: "file:///etc/passwd"),
                "/redirect/to-ftp": .redirect(to: "ftp://127.0.0.1:\(port)/static"),
                "/fault/drop": .drop(faultBody, after: 5000),
                "/fault/short-body": .contentLengthMismatch(body: faultBody, declaredLength: 20_000),
                "/fault/garbage": .garbage(Data("SSH-2.0-OpenSSH_9.2\r\n\u{0}\u{1}\u{2} not HTTP at all".utf8)),
                "/resource": .resource(resourceBody, etag: resourceETag),
                "/pattern": .pattern(),
                "/not-modified": .data(Data(), status: 304, headers: ["ETag": notModifiedETag]),
            ]
        }
    }

    /// What a loader must answer for one of the suite's URLs in the checks that don't need the network.
    public enum ScriptedAnswer: Sendable, Equatable {
        /// Succeed with exactly this body. `headers` are what the server sends with it, for a loader that has
        /// response headers; the checks without network don't look at them.
        case body(Data, headers: [String: String])
        /// Fail with an error: the server answers with this HTTP status. If the loader's error carries a status
        /// code, ``Options/statusCode`` lets the suite compare it.
        case status(Int)
        /// Fail with an error: the server's reply is broken (cut short, or not HTTP at all).
        case fault
    }

    /// The suite's URLs and what a loader that doesn't speak HTTP must answer for each, so it can run the checks
    /// in ``Check/withoutNetwork``: bodies, status routes, faulty routes and the URLs of the concurrency check.
    /// The URLs point at this suite's server (its port is part of them), so seed the loader after creating the
    /// suite. Any other URL is not requested by those checks.
    public var scriptedAnswers: [URL: ScriptedAnswer] {
        var answers: [URL: ScriptedAnswer] = [:]
        for (path, body) in Fixtures.successfulBodies {
            let headers = path == "/static" ? ["Content-Type": "image/png", "X-Conformance": "static"] : [:]
            answers[url(path)] = .body(body, headers: headers)
        }
        for (path, status) in Fixtures.statusRoutes {
            answers[url(path)] = .status(status)
        }
        for path in Fixtures.faultRoutes {
            answers[url(path)] = .fault
        }
        for index in 0..<options.concurrentTransferCount {
            let size = 1000 + index * 37
            let start = index * 9973
            answers[url(Fixtures.concurrentPath(index))] = .body(
                FixturePattern.bytes(in: start..<(start + size)), headers: [:])
        }
        return answers
    }

    /// Scripts `mock` to answer the suite's URLs the way the server does (``scriptedAnswers``), for the checks
    /// that don't require the network (``Check/withoutNetwork``).
    public func script(_ mock: MockDataLoader) {
        for (url, answer) in scriptedAnswers {
            switch answer {
            case let .body(data, headers):
                mock.setResponse(for: url, data: data, headers: headers)
            case let .status(status):
                mock.setResponse(for: url, data: Data("status \(status)\n".utf8), statusCode: status)
            case .fault:
                mock.setError(for: url, Failure("scripted fault for \(url.path)"))
            }
        }
        mock.setResponse(
            for: url("/not-modified"), data: Data(), statusCode: 304, headers: ["ETag": Fixtures.notModifiedETag])
    }
}
