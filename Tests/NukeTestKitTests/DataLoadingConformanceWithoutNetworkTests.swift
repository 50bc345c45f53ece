import Dispatch
import Foundation
import NukeCore
import NukeTestKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loader that doesn't speak HTTP runs the network-free checks after seeding itself with `scriptedAnswers`,
/// and the suite's messages say what happened when a loader never answers like HTTP.
@Suite("DataLoadingConformance without a network")
struct DataLoadingConformanceWithoutNetworkTests {
    private struct InMemoryError: Error {
        let statusCode: Int?
    }

    /// A mistake an in-memory loader can make while it answers as seeded.
    enum Defect {
        /// Calls `completion` a second time after every success.
        case completesTwice
        /// Answers a scripted fault with a success.
        case succeedsOnFaults
    }

    /// Answers from a dictionary on a background queue: one chunk with a plain `URLResponse`, then completion.
    private final class InMemoryLoader: DataLoading {
        private let answers = LockedValueBox<[URL: DataLoadingConformance.ScriptedAnswer]>([:])
        private let defect: Defect?

        init(defect: Defect? = nil) {
            self.defect = defect
        }

        func store(_ answers: [URL: DataLoadingConformance.ScriptedAnswer]) {
            self.answers.withLock { $0 = answers }
        }

        func loadData(
            with request: URLRequest,
            didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
            completion: @escaping @Sendable ((any Error)?) -> Void
        ) -> any Cancellable {
            let load = Load()
            let url = request.url
            let stored = url.flatMap { url in answers.withLock { $0[url] } }
            let defect = self.defect
            // The defects: a fault answered with an empty body; a second completion after a success.
            let answer = defect == .succeedsOnFaults && stored == .fault ? .body(Data(), headers: [:]) : stored
            let complete: @Sendable ((any Error)?) -> Void = { error in
                completion(error ?? (load.isCancelled ? CancellationError() : nil))
                if defect == .completesTwice, error == nil { completion(nil) }
            }
            DispatchQueue.global().async {
                guard !load.isCancelled, let url else { return }
                Self.deliver(answer, for: url, didReceiveData: didReceiveData, completion: complete)
            }
            return load
        }

        // Plugins.md shows these lines (see `pluginsGuideShowsIt`).
        // PLUGINS-SCRIPTED-ANSWER-BEGIN
        /// Answers a load of `url` as `suite.scriptedAnswers` lists it (`nil`: a URL the checks don't load).
        static func deliver(
            _ answer: DataLoadingConformance.ScriptedAnswer?, for url: URL,
            didReceiveData: @Sendable (Data, URLResponse) -> Void,
            completion: @Sendable ((any Error)?) -> Void
        ) {
            switch answer {
            case let .body(data, _)?:  // one chunk (none for an empty body), then success
                if !data.isEmpty {
                    let response = URLResponse(
                        url: url, mimeType: nil, expectedContentLength: data.count, textEncodingName: nil)
                    didReceiveData(data, response)
                }
                completion(nil)
            case let .status(code)?:  // an error; `options.statusCode` can read the code back from it
                completion(InMemoryError(statusCode: code))
            case .fault?, nil:  // an error
                completion(InMemoryError(statusCode: nil))
            }
        }
        // PLUGINS-SCRIPTED-ANSWER-END

        private final class Load: Cancellable {
            private let cancelled = LockedValueBox(false)
            var isCancelled: Bool { cancelled.snapshot }
            func cancel() { cancelled.withLock { $0 = true } }
        }
    }

    private static func suite(_ loader: InMemoryLoader) throws -> DataLoadingConformance {
        var options = DataLoadingConformance.Options()
        options.statusCode = { ($0 as? InMemoryError)?.statusCode }
        options.timeout = .seconds(5)
        return try DataLoadingConformance(loader: loader, options: options)
    }

    @Test func theChecksWithoutNetworkAreTheOnesThatDoNotRequireIt() {
        #expect(
            DataLoadingConformance.Check.withoutNetwork == [
                .bodies, .completionCalledOnce, .cancellationBeforeResponse, .statusCodeErrors, .concurrentTransfers,
                .faults,
            ])
        #expect(DataLoadingConformance.Check.withoutNetwork.allSatisfy { !$0.requiresNetwork })
    }

    // Plugins.md shows this test (see `pluginsGuideShowsIt`).
    // PLUGINS-WITHOUT-NETWORK-BEGIN
    @Test(arguments: DataLoadingConformance.Check.withoutNetwork)
    func conformance(_ check: DataLoadingConformance.Check) async throws {
        let loader = InMemoryLoader()
        let suite = try DataLoadingConformance(loader: loader)
        loader.store(suite.scriptedAnswers)  // each URL the checks load: a body, a status or a fault
        try await suite.run(check)
    }
    // PLUGINS-WITHOUT-NETWORK-END

    @Test(arguments: ["PLUGINS-WITHOUT-NETWORK", "PLUGINS-SCRIPTED-ANSWER"])
    func pluginsGuideShowsIt(marker: String) throws {
        let guide = try DocumentedSnippet.document("Plugins.md")
        let snippet = try DocumentedSnippet.code(marker)
        #expect(guide.contains("```swift\n\(snippet)\n```"))
    }

    @Test func theServerSeesNoRequestFromAnInMemoryLoader() async throws {
        let loader = InMemoryLoader()
        let suite = try Self.suite(loader)
        loader.store(suite.scriptedAnswers)

        try await suite.runAll(DataLoadingConformance.Check.withoutNetwork)

        #expect(suite.server.requests.isEmpty)
    }

    @Test func aLoadWithoutAnyResponseIsReportedAsSuch() async throws {
        // Given an in-memory loader that knows none of the suite's URLs (every load fails at once)
        let suite = try Self.suite(InMemoryLoader())

        // When running a check that needs the network, and one that doesn't
        let metadata = await #expect(throws: DataLoadingConformance.Failure.self) {
            try await suite.run(.responseMetadata)
        }
        let bodies = await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.bodies) }

        // Then the message says no response came, and what such a loader should run instead
        let message = try #require(metadata?.description)
        #expect(message.hasPrefix("/static: no response came — didReceiveData was never called"))
        #expect(!message.contains("not an HTTPURLResponse"))
        #expect(message.contains("received no request: `responseMetadata` needs a loader that speaks HTTP"))
        #expect(message.contains("`Check.withoutNetwork`"))
        #expect(bodies?.description.contains("must answer the suite's URLs as `scriptedAnswers` lists") == true)
    }

    @Test(arguments: [
        (Defect.completesTwice, DataLoadingConformance.Check.completionCalledOnce, "completion called more than once"),
        (.completesTwice, .bodies, "completion called more than once"),
        (.succeedsOnFaults, .faults, "a faulty response completed successfully"),
    ])
    func aSeededLoaderWithADefectHearsOfTheDefectAlone(
        defect: Defect, check: DataLoadingConformance.Check, named: String
    ) async throws {
        // Given an in-memory loader seeded with the suite's answers, with one defect
        let loader = InMemoryLoader(defect: defect)
        let suite = try Self.suite(loader)
        loader.store(suite.scriptedAnswers)

        // When running a check that the defect fails
        let failure = await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(check) }

        // Then the message names the defect, without the hint about seeding (the seeding is not the cause)
        let message = try #require(failure?.description)
        #expect(message.contains(named))
        #expect(!message.contains("received no request"))
        #expect(!message.contains("scriptedAnswers"))
        #expect(suite.server.requests.isEmpty)
    }

    @Test func aLoaderThatIgnoresTheSeedingHearsOfIt() async throws {
        // Given an in-memory loader seeded with answers for another suite's server (another port): it answers none
        // of this suite's URLs
        let loader = InMemoryLoader()
        let suite = try Self.suite(loader)
        let other = try Self.suite(InMemoryLoader())
        loader.store(other.scriptedAnswers)

        // When running a check without network
        let failure = await #expect(throws: DataLoadingConformance.Failure.self) {
            try await suite.run(.concurrentTransfers)
        }

        // Then the message says the server received no request, and that the loader must answer as seeded
        let message = try #require(failure?.description)
        #expect(message.contains("concurrent transfers"))
        #expect(message.contains("received no request: a loader that doesn't speak HTTP must answer the suite's URLs"))
    }

    @Test func aResponseThatIsNotHTTPIsNamed() async throws {
        // Given an in-memory loader that answers /static with a plain URLResponse
        let loader = InMemoryLoader()
        let suite = try Self.suite(loader)
        loader.store(suite.scriptedAnswers)

        // When running the metadata check
        let failure = await #expect(throws: DataLoadingConformance.Failure.self) {
            try await suite.run(.responseMetadata)
        }

        // Then the message names the response's type
        #expect(failure?.description.hasPrefix("/static: the response passed to didReceiveData is a") == true)
        #expect(failure?.description.contains("not an HTTPURLResponse") == true)
    }
}
