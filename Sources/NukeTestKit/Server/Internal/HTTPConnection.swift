#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// Serves one accepted connection: reads requests one after another (keep-alive), logs each, and answers it
/// according to its route. Runs on the connection's own thread; the caller closes the descriptor afterwards.
struct HTTPConnection {
    let fd: Int32
    let number: Int
    let core: ServerCore
    private var buffer = Data()
    private var requestCount = 0

    init(fd: Int32, number: Int, core: ServerCore) {
        self.fd = fd
        self.number = number
        self.core = core
    }

    /// The largest request head accepted; a larger one gets `431` and the connection is closed.
    static let maximumHeadSize = 64 * 1024

    mutating func run() {
        while let request = readRequest() {
            core.record(request)
            var route = core.route(for: request.path) ?? .status(404)
            for _ in 0..<8 {  // handlers may return handlers; stop at a sane depth
                guard case let .handler(resolve) = route.kind else { break }
                route = resolve(request)
            }
            let responder = Responder(fd: fd, request: request, core: core)
            guard responder.respond(with: route) else { return }
        }
    }

    /// Reads the next request; `nil` when the client closed the connection or sent something unusable.
    private mutating func readRequest() -> LoopbackHTTPServer.RecordedRequest? {
        let separator = Data("\r\n\r\n".utf8)
        var headEnd = buffer.range(of: separator)
        while headEnd == nil {
            guard buffer.count <= Self.maximumHeadSize else {
                let head = Data("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n".utf8)
                _ = Socket.sendAll(fd, head)
                return nil
            }
            guard receiveMore() else { return nil }
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[buffer.startIndex..<headEnd.lowerBound], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex..<headEnd.upperBound)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else { return nil }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            )
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        while buffer.count < length {
            guard receiveMore() else { return nil }
        }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(min(length, buffer.count))
        requestCount += 1
        return LoopbackHTTPServer.RecordedRequest(
            method: requestLine[0], target: requestLine[1], httpVersion: requestLine[2], headers: headers,
            body: body, connectionID: number, indexOnConnection: requestCount)
    }

    private mutating func receiveMore() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}
