#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NukeCore

/// One load of a ``MockDataLoader``: delivers its script on the loader's queue and is its ``Cancellable``.
final class MockDataLoadTask: Cancellable {
    private enum Phase {
        case pending, cancelled, finished
    }

    private let request: URLRequest
    private let script: MockDataLoaderScript
    private let chunkCount: Int
    private let didReceiveData: @Sendable (Data, URLResponse) -> Void
    private let completion: @Sendable ((any Error)?) -> Void
    private weak let owner: MockDataLoader?
    private let phase = LockedValueBox(Phase.pending)

    init(
        request: URLRequest,
        script: MockDataLoaderScript,
        chunkCount: Int,
        owner: MockDataLoader,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        self.request = request
        self.script = script
        self.chunkCount = chunkCount
        self.owner = owner
        self.didReceiveData = didReceiveData
        self.completion = completion
    }

    /// Cancels the load if it hasn't finished; only the first such call is reported to the owner.
    func cancel() {
        let didCancel = phase.withLock { phase in
            guard phase == .pending else { return false }
            phase = .cancelled
            return true
        }
        if didCancel { owner?.loadDidCancel() }
    }

    /// Delivers the script. Call on the loader's serial queue, never inside `loadData`.
    func deliver() {
        switch script {
        case let .failure(error):
            finish(error)
        case let .response(_, 304, headers):
            // Not Modified: no body; the response comes with one empty chunk.
            didReceiveData(Data(), makeResponse(statusCode: 304, headers: headers, contentLength: 0))
            finish(nil)
        case let .response(data, statusCode, headers):
            guard (200..<300).contains(statusCode) else {
                finish(MockDataLoader.StatusCodeError(statusCode: statusCode))
                return
            }
            let response = makeResponse(statusCode: statusCode, headers: headers, contentLength: data.count)
            for chunk in data.chunks(count: chunkCount) {
                guard isPending else { return }
                didReceiveData(chunk, response)
            }
            finish(nil)
        }
    }

    private var isPending: Bool {
        phase.withLock { $0 == .pending }
    }

    private func finish(_ error: (any Error)?) {
        let didFinish = phase.withLock { phase in
            guard phase == .pending else { return false }
            phase = .finished
            return true
        }
        guard didFinish else { return }
        owner?.loadDidFinish()
        completion(error)
    }

    private func makeResponse(statusCode: Int, headers: [String: String], contentLength: Int) -> URLResponse {
        let url = request.url ?? URL(string: "about:blank")!
        var fields = headers
        if !fields.keys.contains(where: { $0.lowercased() == "content-length" }) {
            fields["Content-Length"] = String(contentLength)
        }
        let response = HTTPURLResponse(
            url: url,
            statusCode: statusCode,
            httpVersion: "HTTP/1.1",
            headerFields: fields
        )
        return response
            ?? URLResponse(url: url, mimeType: nil, expectedContentLength: contentLength, textEncodingName: nil)
    }
}
