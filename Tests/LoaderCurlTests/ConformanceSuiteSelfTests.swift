import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

/// The conformance suite must fail loaders that break the contract; each decorator breaks one rule.
@Suite("DataLoadingConformance catches broken loaders")
struct ConformanceSuiteSelfTests {
    private func suite(_ loader: any DataLoading) throws -> DataLoadingConformance {
        var options = DataLoadingConformance.Options()
        options.timeout = .seconds(3)
        return try DataLoadingConformance(loader: loader, options: options)
    }

    @Test func completionCalledTwice() async throws {
        let suite = try suite(Broken(.completesTwice))
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.completionCalledOnce) }
    }

    @Test func bodyBufferedUntilTheEnd() async throws {
        let suite = try suite(Broken(.buffersBody))
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.streaming) }
    }

    @Test func cancelIgnored() async throws {
        let suite = try suite(Broken(.ignoresCancel))
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.cancellationDuringTransfer) }
    }

    @Test func errorsReportedAsSuccess() async throws {
        let suite = try suite(Broken(.swallowsErrors))
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.statusCodeErrors) }
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.faults) }
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.redirects) }
    }

    @Test func requestTimeoutIgnored() async throws {
        let suite = try suite(Broken(.ignoresTimeout))
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.timeouts) }
    }

    @Test func wrongStatusCodeReported() async throws {
        var options = DataLoadingConformance.Options()
        options.statusCode = { _ in 418 }
        let suite = try DataLoadingConformance(loader: CurlDataLoader(), options: options)
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.statusCodeErrors) }
    }

    @Test func corruptedBytes() async throws {
        let suite = try suite(Broken(.flipsAByte))
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.bodies) }
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.largeBody) }
        await #expect(throws: DataLoadingConformance.Failure.self) { try await suite.run(.concurrentTransfers) }
    }

    @Test func runAllListsEveryFailure() async throws {
        let suite = try suite(Broken(.swallowsErrors))
        do {
            try await suite.runAll([.bodies, .statusCodeErrors, .faults])
            Issue.record("runAll passed a loader that swallows errors")
        } catch let failure as DataLoadingConformance.Failure {
            #expect(failure.description.hasPrefix("2 of 3 checks failed"))
            #expect(failure.description.contains("statusCodeErrors") && failure.description.contains("faults"))
        }
    }
}

/// A ``CurlDataLoader`` with one deliberate contract violation.
private struct Broken: DataLoading {
    enum Flaw {
        case completesTwice, buffersBody, ignoresCancel, swallowsErrors, ignoresTimeout, flipsAByte
    }

    let flaw: Flaw
    let base = CurlDataLoader()

    init(_ flaw: Flaw) { self.flaw = flaw }

    func loadData(
        with request: URLRequest, didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        var request = request
        switch flaw {
        case .completesTwice:
            return base.loadData(with: request, didReceiveData: didReceiveData) { error in
                completion(error)
                completion(error)
            }
        case .buffersBody:
            let buffer = Buffer()
            return base.loadData(with: request, didReceiveData: { buffer.append($0, $1) }) { error in
                if let (data, response) = buffer.take() { didReceiveData(data, response) }
                completion(error)
            }
        case .ignoresCancel:
            _ = base.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
            return Uncancellable()
        case .swallowsErrors:
            return base.loadData(with: request, didReceiveData: didReceiveData) { _ in completion(nil) }
        case .ignoresTimeout:
            request.timeoutInterval = 0
            return base.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
        case .flipsAByte:
            return base.loadData(
                with: request,
                didReceiveData: { data, response in
                    var data = data
                    data[data.startIndex] ^= 0xFF
                    didReceiveData(data, response)
                }, completion: completion)
        }
    }
}

private struct Uncancellable: Cancellable {
    func cancel() {}
}

private final class Buffer: @unchecked Sendable {
    // @unchecked: the fields are only accessed under `lock`.
    private let lock = NSLock()
    private var data = Data()
    private var response: URLResponse?

    func append(_ chunk: Data, _ response: URLResponse) {
        lock.withLock {
            data.append(chunk)
            self.response = response
        }
    }

    func take() -> (Data, URLResponse)? {
        lock.withLock { response.map { (data, $0) } }
    }
}
