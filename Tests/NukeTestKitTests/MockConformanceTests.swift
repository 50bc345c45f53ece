import NukeTestKit
import Testing

@Suite("MockDataLoader conformance")
struct MockConformanceTests {
    // `notModified` needs no network from a scripted mock: `script(_:)` answers its URL with a 304.
    @Test(arguments: DataLoadingConformance.Check.allCases.filter { !$0.requiresNetwork || $0 == .notModified })
    func conformance(_ check: DataLoadingConformance.Check) async throws {
        // Given a MockDataLoader scripted to answer the suite's URLs like its server
        let mock = MockDataLoader()
        mock.chunkCount = 3
        var options = DataLoadingConformance.Options()
        options.statusCode = { ($0 as? MockDataLoader.StatusCodeError)?.statusCode }
        let suite = try DataLoadingConformance(loader: mock, options: options)
        suite.script(mock)

        // When/Then the check passes
        try await suite.run(check)
    }
}
