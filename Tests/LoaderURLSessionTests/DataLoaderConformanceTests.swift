import LoaderURLSession
import NukeTestKit
import Testing

@Suite("DataLoader (URLSession) conformance")
struct DataLoaderConformanceTests {
    @Test(arguments: DataLoadingConformance.Check.allCases)
    func conformance(_ check: DataLoadingConformance.Check) async throws {
        // Given a URLSession-based DataLoader and the suite's own loopback server
        var options = DataLoadingConformance.Options()
        options.statusCode = {
            if case let .statusCodeUnacceptable(code) = $0 as? DataLoader.Error { return code }
            return nil
        }
        let suite = try DataLoadingConformance(loader: DataLoader(), options: options)

        // When/Then the check passes (it throws a description of any deviation)
        try await suite.run(check)
    }
}
