import LoaderCurl
import NukeTestKit
import Testing

@testable import ThirdPartyApp

/// The app's loader against the suite's loopback server, as Plugins.md shows the check.
@Test(arguments: DataLoadingConformance.Check.allCases)
func headerLoaderConforms(_ check: DataLoadingConformance.Check) async throws {
    var options = DataLoadingConformance.Options()
    options.statusCode = { ($0 as? CurlError)?.statusCode }
    let loader = HeaderDataLoader(base: CurlDataLoader(), headers: ["X-Api-Key": "secret"])
    try await DataLoadingConformance(loader: loader, options: options).run(check)
}
