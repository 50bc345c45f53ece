import Foundation
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DataLoadingConformance {
    /// The `timeoutInterval` of loads that stall on purpose: longer than any check runs.
    static var stallTimeout: TimeInterval { 3600 }

    func load(_ path: String, configure: (inout URLRequest) -> Void = { _ in }) -> RecordedLoad {
        var request = URLRequest(url: url(path))
        configure(&request)
        return RecordedLoad(loader: loader, request: request)
    }

    /// Watches for ``Options/quietPeriod`` for callbacks that must not come, then checks every load's record:
    /// no violations, and (with `expectCompletion`) exactly one completion.
    func settle(_ loads: [RecordedLoad], expectCompletion: Bool = true) async throws {
        try await Task.sleep(for: options.quietPeriod)
        for load in loads {
            let name = load.request.url.map { "\(load.request.httpMethod ?? "GET") \($0.path)" } ?? "?"
            if let violation = load.violations.first {
                throw Failure("\(name): \(violation)")
            }
            if expectCompletion, load.completionCount != 1 {
                throw Failure("\(name): completion called \(load.completionCount) times")
            }
        }
    }

    /// Why `check` failed with no request reaching the suite's server, when that is the cause; `nil` when it isn't.
    ///
    /// A check that ``Check/requiresNetwork`` can't pass without HTTP. For the others, a loader that doesn't speak
    /// HTTP fails when it doesn't answer the suite's URLs as ``scriptedAnswers`` lists (it wasn't seeded, or ignores
    /// the seeding): one load of `/static`, whose scripted answer is ``Fixtures/staticBody``, tells. A loader that
    /// answers it, or doesn't complete it within ``Options/timeout``, has a defect of its own, which the check's
    /// failure already names.
    func noRequestHint(for check: Check) async -> String? {
        if check.requiresNetwork {
            return "`\(check)` needs a loader that speaks HTTP to it; a loader that doesn't runs only "
                + "`Check.withoutNetwork`"
        }
        let probe = load("/static")
        do {
            try await probe.waitForCompletion(timeout: options.timeout)
        } catch {
            probe.cancel()
            return nil
        }
        guard !probe.succeeded || probe.data != Fixtures.staticBody else { return nil }
        return "a loader that doesn't speak HTTP must answer the suite's URLs as `scriptedAnswers` lists"
    }

    func waitForAbortedResponses(_ count: Int, _ what: String) async throws {
        do {
            try await server.waitUntil("the client to close the connection", timeout: options.timeout) {
                $0.abortedResponses >= count
            }
        } catch {
            throw Failure("\(what): the loader kept the connection open — the transfer wasn't stopped (\(error))")
        }
    }

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw Failure(message()) }
    }

    func expectEqual(_ data: Data, _ expected: Data, _ what: String) throws {
        guard data != expected else { return }
        let mismatch = zip(data, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        throw Failure(
            "\(what): received \(data.count) bytes, expected \(expected.count)"
                + (mismatch.map { "; first difference at offset \($0)" } ?? ""))
    }
}

/// A short description of a completion's error.
func describe(_ error: (any Error)?) -> String {
    error.map { "\(type(of: $0)): \($0)" } ?? "no error"
}
