import LoaderCurl
import NukeTestKit
import Testing

@Suite("CurlDataLoader conformance")
struct CurlConformanceTests {
    @Test(arguments: DataLoadingConformance.Check.allCases)
    func conformance(_ check: DataLoadingConformance.Check) async throws {
        // Given a CurlDataLoader and the suite's own loopback server
        var options = DataLoadingConformance.Options()
        options.statusCode = { ($0 as? CurlError)?.statusCode }
        let suite = try DataLoadingConformance(loader: CurlDataLoader(), options: options)

        // When/Then the check passes (it throws a description of any deviation)
        try await suite.run(check)
    }
}
