import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderCurl
import LoaderURLSession
import NukeCore
import NukeTestKit
import Testing

// The README's "Loading over HTTP" snippets, compiled here; the test below checks the README shows exactly them.

private func readmeLoading(url: URL) async throws {
    // README-LOADING-BEGIN
    let pipeline = ImagePipeline {
        $0.dataLoader = CurlDataLoader()  // LoaderCurl: libcurl, HTTP/2, connection reuse
        // or: $0.dataLoader = DataLoader() // LoaderURLSession: FoundationNetworking's URLSession
    }
    let image = try await pipeline.image(for: url)
    // README-LOADING-END
    _ = image
}

private struct MyLoader: DataLoading {
    let base = CurlDataLoader()

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        base.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
    }
}

/// The README's conformance example, run for real against a wrapped `CurlDataLoader`.
@Suite struct ReadmeConformance {
    // README-CONFORMANCE-BEGIN
    @Test(arguments: DataLoadingConformance.Check.allCases)
    func conformance(_ check: DataLoadingConformance.Check) async throws {
        try await DataLoadingConformance(loader: MyLoader()).run(check)
    }
    // README-CONFORMANCE-END
}

@Suite struct ReadmeLoaderSnippetTests {
    @Test func readmeShowsTheCompiledSnippets() throws {
        let readme = try DocumentedSnippet.document("README.md")
        for marker in ["README-LOADING", "README-CONFORMANCE"] {
            let snippet = try DocumentedSnippet.code(marker)
            #expect(readme.contains("```swift\n\(snippet)\n```"), "README lacks the \(marker) snippet")
        }
    }
}
