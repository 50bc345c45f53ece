import Foundation
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DataLoadingConformance {
    func checkBodies() async throws {
        let loads = Fixtures.successfulBodies.map { path, body in (path, body, load(path)) }
        for (path, body, load) in loads {
            try await load.waitForCompletion(timeout: options.timeout)
            try expect(load.succeeded, "\(path): failed with \(describe(load.error))")
            try expectEqual(load.data, body, path)
        }
        try await settle(loads.map(\.2))
    }

    func checkResponseMetadata() async throws {
        let loads = [load("/static"), load("/chunked")]
        for load in loads { try await load.waitForCompletion(timeout: options.timeout) }
        let path = "/static"
        guard let anyResponse = loads[0].response else {
            throw Failure(
                "\(path): no response came — didReceiveData was never called (the load completed with "
                    + "\(describe(loads[0].error)))")
        }
        guard let response = anyResponse as? HTTPURLResponse else {
            throw Failure(
                "\(path): the response passed to didReceiveData is a \(type(of: anyResponse)), not an HTTPURLResponse")
        }
        try expect(response.statusCode == 200, "\(path): statusCode \(response.statusCode), expected 200")
        try expect(
            response.value(forHTTPHeaderField: "X-Conformance") == "static",
            "\(path): header X-Conformance is \(String(describing: response.value(forHTTPHeaderField: "X-Conformance"))), expected \"static\""
        )
        try expect(
            response.mimeType == "image/png", "\(path): mimeType \(response.mimeType ?? "nil"), expected image/png")
        try expect(
            response.expectedContentLength == Int64(Fixtures.staticBody.count),
            "\(path): expectedContentLength \(response.expectedContentLength), expected \(Fixtures.staticBody.count)")
        try expect(response.url == url(path), "\(path): response URL \(response.url?.absoluteString ?? "nil")")
        let chunked = loads[1].httpResponse?.expectedContentLength
        try expect(
            chunked == -1,
            "/chunked: expectedContentLength \(chunked.map(String.init) ?? "nil"), expected -1 (unknown length)")
        try await settle(loads)
    }

    func checkCompressedBodies() async throws {
        let loads = ["/gzip", "/deflate"].map { ($0, load($0)) }
        for (path, load) in loads {
            try await load.waitForCompletion(timeout: options.timeout)
            try expect(load.succeeded, "\(path): failed with \(describe(load.error))")
            try expectEqual(load.data, Fixtures.textBody, "\(path) (decoded)")
        }
        try await settle(loads.map(\.1))
    }

    func checkStreaming() async throws {
        // Stalls for as long as the check runs: an idle timeout (the request's `timeoutInterval`, 60 s by default)
        // must not end it first on a slow or loaded machine.
        let stalled = load("/stall-after-prefix") { $0.timeoutInterval = Self.stallTimeout }
        try await stalled.waitForFirstChunk(timeout: options.timeout)
        try expect(!stalled.isCompleted, "/stall-after-prefix: completed although the body isn't complete")
        stalled.cancel()
        let slow = load("/slow-chunks")
        try await slow.waitForCompletion(timeout: options.timeout)
        try expect(slow.succeeded, "/slow-chunks: failed with \(describe(slow.error))")
        try expect(
            slow.chunkCount >= 2,
            "/slow-chunks: \(slow.chunkCount) didReceiveData call(s) for a body sent in \(Fixtures.chunks.count) "
                + "chunks \(Fixtures.slowChunkDelay) apart; chunks must be delivered as they arrive")
        try expectEqual(slow.data, Fixtures.chunks.reduce(Data(), +), "/slow-chunks")
        try await settle([stalled, slow], expectCompletion: false)
    }

    func checkCompletionCalledOnce() async throws {
        let paths = Array(Fixtures.successfulBodies.keys) + Array(Fixtures.statusRoutes.keys) + Fixtures.faultRoutes
        let loads = paths.map { load($0) }
        for load in loads { try await load.waitForCompletion(timeout: options.timeout) }
        try await settle(loads)
    }

    func checkCancellationBeforeResponse() async throws {
        let cancelled = (0..<20).map { _ in load("/static") }
        for load in cancelled { load.cancel() }
        let finished = load("/static")
        try await finished.waitForCompletion(timeout: options.timeout)
        finished.cancel()  // after completion: must do nothing
        try await settle(cancelled, expectCompletion: false)
        try await settle([finished])
    }

    func checkCancellationDuringTransfer() async throws {
        // From inside the first didReceiveData call: nothing but an error completion may follow.
        var aborted = server.statistics.abortedResponses
        let inside = RecordedLoad(
            loader: loader, request: URLRequest(url: url("/stall-after-prefix")), cancelsOnFirstChunk: true)
        try await inside.waitForFirstChunk(timeout: options.timeout)
        try await waitForAbortedResponses(aborted + 1, "cancel() from inside didReceiveData")
        // From another thread while the server holds the response.
        aborted = server.statistics.abortedResponses
        let outside = load("/stall-after-prefix") { $0.timeoutInterval = Self.stallTimeout }
        try await outside.waitForFirstChunk(timeout: options.timeout)
        outside.cancel()
        try await waitForAbortedResponses(aborted + 1, "cancel() from another thread")
        // While chunks keep coming.
        let slow = load("/slow-chunks")
        try await slow.waitForFirstChunk(timeout: options.timeout)
        slow.cancel()
        try await settle([inside, outside, slow], expectCompletion: false)
    }

    func checkStatusCodeErrors() async throws {
        let loads = Fixtures.statusRoutes.map { path, status in (path, status, load(path)) }
        for (path, status, load) in loads {
            try await load.waitForCompletion(timeout: options.timeout)
            guard let error = load.error else {
                throw Failure("\(path): status \(status) completed without an error (\(load.byteCount) bytes)")
            }
            if let reported = options.statusCode(error) {
                try expect(reported == status, "\(path): the error reports status \(reported), expected \(status)")
            }
            // The response may come first (for an HTTP cache), as an empty chunk; the error page's body never does.
            try expect(load.byteCount == 0, "\(path): \(load.byteCount) bytes of the error's body were delivered")
            if let response = load.httpResponse {
                try expect(
                    response.statusCode == status,
                    "\(path): a response with status \(response.statusCode) was delivered, expected \(status)")
            }
        }
        try await settle(loads.map(\.2))
    }

    func checkRedirects() async throws {
        let chain = load("/redirect/301")
        let loop = load("/redirect/loop-a")
        let toFile = load("/redirect/to-file")
        let toFTP = load("/redirect/to-ftp")
        for load in [chain, loop, toFile, toFTP] { try await load.waitForCompletion(timeout: options.timeout) }
        try expect(chain.succeeded, "/redirect/301 → 302 → 307 → /static: failed with \(describe(chain.error))")
        try expectEqual(chain.data, Fixtures.staticBody, "/redirect/301 → /static")
        try expect(
            chain.response?.url?.path == "/static",
            "/redirect/301: the response URL is \(chain.response?.url?.absoluteString ?? "nil"), expected …/static")
        let hops = ["/redirect/301", "/redirect/302", "/redirect/307", "/static"]
        for hop in hops where server.requests(for: hop).isEmpty {
            throw Failure("/redirect/301: the chain never requested \(hop)")
        }
        try expect(!loop.succeeded, "/redirect/loop-a ↔ loop-b: a redirect loop succeeded")
        let loopRequests =
            server.requests(for: "/redirect/loop-a").count + server.requests(for: "/redirect/loop-b").count
        try expect(loopRequests <= 50, "/redirect/loop-a: followed the loop \(loopRequests) times")
        try expect(!toFile.succeeded, "/redirect/to-file: a redirect to file:///etc/passwd succeeded")
        try expect(!toFTP.succeeded, "/redirect/to-ftp: a redirect to ftp:// succeeded")
        try await settle([chain, loop, toFile, toFTP])
    }

    func checkTimeouts() async throws {
        let loads = ["/stall", "/stall-after-prefix"].map { path in
            (path, load(path) { $0.timeoutInterval = options.requestTimeout })
        }
        for (path, load) in loads {
            do {
                try await load.waitForCompletion(timeout: options.timeout)
            } catch {
                throw Failure("\(path) with timeoutInterval \(options.requestTimeout) s: \(error)")
            }
            try expect(!load.succeeded, "\(path): a stalled response completed successfully")
        }
        try await settle(loads.map(\.1))
    }

    func checkConcurrentTransfers() async throws {
        let count = options.concurrentTransferCount
        let loads = (0..<count).map { index in (index, load(Fixtures.concurrentPath(index))) }
        var failures: [String] = []
        for (index, load) in loads {
            try await load.waitForCompletion(timeout: options.timeout)
            let size = 1000 + index * 37
            let start = index * 9973
            if !load.succeeded {
                failures.append("#\(index) failed: \(describe(load.error))")
            } else if load.data != FixturePattern.bytes(in: start..<(start + size)) {
                failures.append("#\(index): \(load.byteCount) bytes, not the \(size) expected")
            }
        }
        guard failures.isEmpty else {
            throw Failure(
                "\(failures.count) of \(count) concurrent transfers: " + failures.prefix(5).joined(separator: "; "))
        }
        try await settle(loads.map(\.1))
    }

    func checkLargeBody() async throws {
        let size = options.largeBodySize
        let start = 12_345
        let path = "/pattern?size=\(size)&start=\(start)"
        let large = RecordedLoad(loader: loader, url: url(path), storage: .verifyPattern(start: start))
        try await large.waitForCompletion(timeout: options.timeout + .seconds(size >> 22))
        try expect(large.succeeded, "\(path): failed with \(describe(large.error))")
        try expect(large.byteCount == size, "\(path): \(large.byteCount) bytes, expected \(size)")
        try expect(large.matchesPattern, "\(path): the bytes differ from what the server sent")
        try await settle([large])
    }

    func checkRequestFidelity() async throws {
        let probe = UUID().uuidString
        let get = load("/static?probe=\(probe)") {
            $0.setValue(probe, forHTTPHeaderField: "X-Conformance-Probe")
            $0.setValue("image/png,image/*;q=0.8", forHTTPHeaderField: "Accept")
        }
        let head = load("/static?probe=head-\(probe)") { $0.httpMethod = "HEAD" }
        let range = load("/resource") { $0.setValue("bytes=100-", forHTTPHeaderField: "Range") }
        let staleRange = load("/resource?stale") {
            $0.setValue("bytes=100-", forHTTPHeaderField: "Range")
            $0.setValue("\"stale\"", forHTTPHeaderField: "If-Range")
        }
        for load in [get, head, range, staleRange] { try await load.waitForCompletion(timeout: options.timeout) }
        try expect(get.succeeded, "GET /static: failed with \(describe(get.error))")
        guard let logged = server.requests.first(where: { $0.target == "/static?probe=\(probe)" }) else {
            throw Failure("GET /static?probe=…: the server never received it")
        }
        try expect(logged.method == "GET", "GET /static: the server received \(logged.method)")
        try expect(
            logged.header("X-Conformance-Probe") == probe,
            "GET /static: header X-Conformance-Probe arrived as \(logged.header("X-Conformance-Probe") ?? "nothing")")
        try expect(
            logged.header("Accept") == "image/png,image/*;q=0.8",
            "GET /static: header Accept arrived as \(logged.header("Accept") ?? "nothing")")
        try expect(head.succeeded, "HEAD /static: failed with \(describe(head.error))")
        try expect(head.byteCount == 0, "HEAD /static: delivered \(head.byteCount) body bytes")
        let headLogged = server.requests.first { $0.target == "/static?probe=head-\(probe)" }
        try expect(headLogged?.method == "HEAD", "HEAD /static: the server received \(headLogged?.method ?? "nothing")")
        try expect(range.succeeded, "GET /resource with Range: failed with \(describe(range.error))")
        try expect(
            range.httpResponse?.statusCode == 206,
            "GET /resource with Range: status \(range.httpResponse?.statusCode ?? 0), expected 206")
        try expectEqual(
            range.data, Fixtures.resourceBody.subdata(in: 100..<Fixtures.resourceBody.count), "Range bytes=100-")
        try expect(staleRange.succeeded, "GET /resource with a stale If-Range: failed")
        try expectEqual(staleRange.data, Fixtures.resourceBody, "a Range with a stale If-Range (full body)")
        try await settle([get, head, range, staleRange])
    }

    func checkFaults() async throws {
        let loads = Fixtures.faultRoutes.map { ($0, load($0)) }
        for (path, load) in loads {
            try await load.waitForCompletion(timeout: options.timeout)
            try expect(
                !load.succeeded, "\(path): a faulty response completed successfully with \(load.byteCount) bytes")
        }
        try await settle(loads.map(\.1))
    }

    func checkNotModified() async throws {
        let conditional = load("/not-modified") {
            $0.setValue(Fixtures.notModifiedETag, forHTTPHeaderField: "If-None-Match")
        }
        let plain = load("/static")
        for load in [conditional, plain] { try await load.waitForCompletion(timeout: options.timeout) }
        try expect(
            conditional.succeeded, "/not-modified: a 304 failed with \(describe(conditional.error)); it is a response")
        try expect(
            conditional.httpResponse?.statusCode == 304,
            "/not-modified: response status \(conditional.httpResponse?.statusCode.description ?? "none"), expected "
                + "304 (an HTTPURLResponse delivered with one empty chunk)")
        try expect(
            conditional.chunkCount == 1 && conditional.byteCount == 0,
            "/not-modified: \(conditional.chunkCount) chunks of \(conditional.byteCount) bytes, expected one empty chunk"
        )
        try expect(plain.succeeded, "/static: failed with \(describe(plain.error))")
        if let received = server.requests(for: "/not-modified").first {
            try expect(
                received.header("If-None-Match") == Fixtures.notModifiedETag,
                "/not-modified: the server received If-None-Match \(received.header("If-None-Match") ?? "nil")")
        }
        for received in server.requests(for: "/static") {
            for name in ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"] {
                try expect(received.header(name) == nil, "/static: the loader added \(name) of its own")
            }
        }
        try await settle([conditional, plain])
    }
}
