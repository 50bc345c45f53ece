import Foundation
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A loader that adds headers (an API key, say) to every request and hands it to another loader.
final class HeaderDataLoader: DataLoading {
    private let base: any DataLoading
    private let headers: [String: String]

    init(base: any DataLoading, headers: [String: String]) {
        self.base = base
        self.headers = headers
    }

    func loadData(
        with request: URLRequest,
        didReceiveData: @escaping @Sendable (Data, URLResponse) -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) -> any Cancellable {
        var request = request
        for (name, value) in headers where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        // The base loader keeps the contract: chunks in order, completion exactly once, prompt cancellation.
        return base.loadData(with: request, didReceiveData: didReceiveData, completion: completion)
    }
}
