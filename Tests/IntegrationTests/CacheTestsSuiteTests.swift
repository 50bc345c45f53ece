import Foundation
import Testing

/// The public HTTP caching test suite (cache-tests, behind cache-tests.fyi; `Tests/Fixtures/cache-tests`) replayed
/// through pipelines that follow HTTP caching headers, against the suite's own origin server on 127.0.0.1.
///
/// Browser mode (a private cache: no `cdn_only` or `browser_skip` tests). Every test runs under its own UUID with a
/// pipeline, `CurlDataLoader` and `DataCache` of its own, ``width`` at a time: the suite's `pause_after` waits 3 s.
/// Tests a `data(for:)` client can't express (other methods, request bodies, fetch cache modes, 1xx, `Range`,
/// redirects, 204s, dropped connections) are listed as not applicable. Header checks on a disk cache hit or a
/// revalidated response are left out: `data(for:)` hands over the bytes of a hit without a response, and a
/// revalidation's with the `304`'s. A status outside 2xx is an error with the status only: such a test is judged on
/// the status and on whether the request reached the origin.
@Suite("cache-tests suite")
struct CacheTestsSuiteTests {
    /// How many tests run at once. Most of a test's time is the suite's 3 s pauses, so many at once keep the run
    /// short; but all ~160 at once load a busy machine (a sanitizer build, the rest of the suite beside it) until a
    /// request takes longer than the 1 s or 2 s lifetimes some tests give their responses, and those fail their
    /// setup; the few that still do on a loaded machine run again one at a time.
    static let width = 24

    @Test("every applicable required test passes; the score beside the browsers'")
    func suite() async throws {
        // Given the suite's definitions, the browsers' published results and its origin server
        let directory = CacheTestsOrigin.suiteDirectory
        let definition = try CacheTestsDefinition(contentsOf: directory.appendingPathComponent("tests.json"))
        let browsers = try ["chrome", "firefox", "safari"].map {
            try CacheTestsBrowserResults(name: $0, contentsOf: directory.appendingPathComponent("results/\($0).json"))
        }
        let origin = try CacheTestsOrigin()
        let tests = CacheTestsReport.browserTests(of: definition).filter { $0.notApplicableReason == nil }

        // When every applicable test runs, a bounded number at once, on the client's own thread
        let client = CacheTestsClient(origin: origin)
        let executor = CacheTestsClientExecutor.shared
        var outcomes = await withTaskExecutorPreference(executor) {
            await Self.runAll(tests, client: client)
        }
        // A setup failure means the test couldn't be judged (the suite's own distinction): on a loaded machine (a
        // sanitizer build with the other suites beside it) a request can outlast the 1–2 s lifetimes some tests
        // give their responses. The required ones among them (those CI fails on) run again, one at a time, up to
        // twice.
        var retried: [String] = []
        for test in tests where test.kind == .required {
            for _ in 0..<2 {
                guard case .setupFailure = outcomes[test.id] else { break }
                retried.append(test.id)
                outcomes[test.id] = await withTaskExecutorPreference(executor) { await client.run(test) }
            }
        }

        // Then every required one passes, and the score is printed beside the browsers'
        let report = CacheTestsReport(definition: definition, browsers: browsers, outcomes: outcomes)
        print(report.text)
        if !retried.isEmpty {
            print("run again, one at a time, after a setup failure: \(retried.joined(separator: ", "))")
        }
        #expect(outcomes.count == tests.count)
        #expect(report.failures(of: .required) == [])
        let totals = report.totals()
        #expect((totals[.required]?.total ?? 0) > 0)
    }

    /// Runs `tests`, ``width`` at a time, and returns their outcomes by ID.
    private static func runAll(_ tests: [CacheTestsTest], client: CacheTestsClient) async -> [String: CacheTestsOutcome]
    {
        await withTaskGroup(of: (String, CacheTestsOutcome).self) { group in
            var pending = tests[...]
            var outcomes: [String: CacheTestsOutcome] = [:]
            while let test = pending.popFirst() {
                group.addTask { (test.id, await client.run(test)) }
                if pending.count + Self.width <= tests.count, let (id, outcome) = await group.next() {
                    outcomes[id] = outcome
                }
            }
            for await (id, outcome) in group { outcomes[id] = outcome }
            return outcomes
        }
    }
}
