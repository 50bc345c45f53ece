import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import LoaderCurl
import NukeTestKit
import Testing

@Test func smoke() async throws {
    let server = try LoopbackHTTPServer(routes: ["/a": .data(Data("hello".utf8), headers: ["X-A": "1"]), "/gz": .gzip(Data("zipped body".utf8)), "/r": .redirect(to: "/a")])
    defer { server.shutdown() }
    let loader = CurlDataLoader()
    for path in ["/a", "/gz", "/r", "/missing"] {
        let (data, response, error) = await withCheckedContinuation { (c: CheckedContinuation<(Data, URLResponse?, (any Error)?), Never>) in
            let box = Box()
            _ = loader.loadData(with: URLRequest(url: server.url(path)), didReceiveData: { d, r in box.append(d, r) }, completion: { e in c.resume(returning: (box.data, box.response, e)) })
        }
        print(path, String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse).map { "\($0.statusCode) \($0.url!) \($0.expectedContentLength) \($0.allHeaderFields)" } ?? "nil", error.map { "\($0)" } ?? "ok")
    }
    print(server.requests)
}

final class Box: @unchecked Sendable {
    let lock = NSLock()
    var data = Data()
    var response: URLResponse?
    func append(_ d: Data, _ r: URLResponse) { lock.withLock { data.append(d); response = r } }
}
