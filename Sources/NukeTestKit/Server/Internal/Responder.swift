import Foundation

/// Writes the response a route describes. Each method returns whether the connection can serve another
/// request (`false` after faults, `Connection: close`, or a client that went away).
struct Responder {
    let fd: Int32
    let request: LoopbackHTTPServer.RecordedRequest
    let core: ServerCore

    private var isHead: Bool { request.method.uppercased() == "HEAD" }

    private var keepAlive: Bool {
        request.httpVersion == "HTTP/1.1" && request.header("Connection")?.lowercased() != "close"
    }

    func respond(with route: LoopbackHTTPServer.Route) -> Bool {
        switch route.kind {
        case let .data(body, status, headers):
            return send(status: status, headers: headers, body: body)
        case let .chunked(chunks, delay, headers):
            return sendChunked(chunks, delay: delay, headers: headers)
        case let .written(body, pieceSize, delay):
            return sendInPieces(body, pieceSize: pieceSize, delay: delay)
        case let .contentLengthMismatch(body, declaredLength):
            _ = write(head(status: 200, headers: ["Content-Length": "\(declaredLength)"], close: true) + body)
            return false
        case let .drop(body, byteCount):
            _ = write(
                head(status: 200, headers: ["Content-Length": "\(body.count)"], close: true) + body.prefix(byteCount))
            return false
        case let .stall(prefix, declaredLength):
            if let prefix {
                let headers = ["Content-Length": "\(declaredLength ?? prefix.count + 1)"]
                guard write(head(status: 200, headers: headers, close: false) + prefix) else { return false }
            }
            stallUntilClientLeaves()
            return false
        case let .redirect(location, status):
            return send(status: status, headers: ["Location": location], body: Data())
        case let .encoded(body, encoding, headers):
            let encoded = encoding == .gzip ? StoredDeflate.gzip(body) : StoredDeflate.zlib(body)
            var fields = headers
            fields["Content-Encoding"] = encoding.rawValue
            return send(status: 200, headers: fields, body: encoded)
        case let .resource(body, etag, dropAfter, headers):
            return sendResource(body, etag: etag, dropAfter: dropAfter, headers: headers)
        case let .pattern(size):
            return sendPattern(size: size)
        case let .garbage(bytes):
            _ = write(bytes)
            return false
        case .handler:
            return send(status: 500, headers: [:], body: Data("handler nesting too deep\n".utf8))
        }
    }

    // MARK: Routes

    private func send(status: Int, headers: [String: String], body: Data) -> Bool {
        var fields = headers
        fields["Content-Length"] = "\(body.count)"
        let data = head(status: status, headers: fields, close: !keepAlive) + (isHead ? Data() : body)
        return write(data) && keepAlive
    }

    private func sendChunked(_ chunks: [Data], delay: Duration?, headers: [String: String]) -> Bool {
        var fields = headers
        fields["Transfer-Encoding"] = "chunked"
        guard write(head(status: 200, headers: fields, close: !keepAlive)) else { return false }
        guard !isHead else { return keepAlive }
        for (index, chunk) in chunks.enumerated() {
            if index > 0, let delay {
                guard core.wake.sleep(milliseconds: Self.milliseconds(delay)) else { return false }
            }
            let frame = Data(String(chunk.count, radix: 16).utf8) + Data("\r\n".utf8) + chunk + Data("\r\n".utf8)
            guard write(frame) else { return false }
        }
        return write(Data("0\r\n\r\n".utf8)) && keepAlive
    }

    private func sendInPieces(_ body: Data, pieceSize: Int, delay: Duration?) -> Bool {
        let fields = ["Content-Length": "\(body.count)"]
        guard write(head(status: 200, headers: fields, close: !keepAlive)) else { return false }
        guard !isHead else { return keepAlive }
        for (index, start) in stride(from: body.startIndex, to: body.endIndex, by: pieceSize).enumerated() {
            if index > 0, let delay {
                guard core.wake.sleep(milliseconds: Self.milliseconds(delay)) else { return false }
            }
            guard write(body[start..<min(start + pieceSize, body.endIndex)]) else { return false }
        }
        return keepAlive
    }

    private func sendResource(_ body: Data, etag: String, dropAfter: Int?, headers: [String: String]) -> Bool {
        var fields = headers
        fields["ETag"] = etag
        fields["Accept-Ranges"] = "bytes"
        var range = 0..<body.count
        var status = 200
        if let rangeHeader = request.range, request.header("If-Range").map({ $0 == etag }) ?? true {
            guard let requested = Self.parseRange(rangeHeader, length: body.count) else {
                fields["Content-Range"] = "bytes */\(body.count)"
                return send(status: 416, headers: fields, body: Data())
            }
            range = requested
            status = 206
            fields["Content-Range"] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(body.count)"
        }
        let slice = body.subdata(in: range)
        guard let dropAfter, range.lowerBound == 0, dropAfter < slice.count, !isHead else {
            return send(status: status, headers: fields, body: slice)
        }
        fields["Content-Length"] = "\(slice.count)"
        _ = write(head(status: status, headers: fields, close: true) + slice.prefix(dropAfter))
        return false
    }

    private func sendPattern(size: Int?) -> Bool {
        let items = request.queryItems
        let size = max(0, size ?? items["size"].flatMap { Int($0) } ?? 0)
        let start = max(0, items["start"].flatMap { Int($0) } ?? 0)
        let fields = ["Content-Length": "\(size)", "Content-Type": "application/octet-stream"]
        guard write(head(status: 200, headers: fields, close: !keepAlive)) else { return false }
        guard !isHead else { return keepAlive }
        var offset = 0
        while offset < size {
            let count = min(64 * 1024, size - offset)
            guard write(FixturePattern.bytes(in: (start + offset)..<(start + offset + count))) else { return false }
            offset += count
        }
        return keepAlive
    }

    /// Waits until the client closes the connection (counted as an aborted response) or the server shuts down.
    private func stallUntilClientLeaves() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let ready = Socket.waitReadable([fd, core.wake.readFD], timeout: -1)
            if ready.contains(1) || ready.isEmpty { return }
            let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
            if count <= 0 {
                core.responseAborted()
                return
            }
        }
    }

    // MARK: Helpers

    private func head(status: Int, headers: [String: String], close: Bool) -> Data {
        var text = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        if close { text += "Connection: close\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// Sends `data`; a failure means the client went away mid-response, which is counted.
    private func write(_ data: Data) -> Bool {
        guard Socket.sendAll(fd, data) else {
            core.responseAborted()
            return false
        }
        return true
    }

    /// Parses `bytes=a-b`, `bytes=a-` or `bytes=-n` against a body of `length` bytes.
    static func parseRange(_ header: String, length: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = Int(spec[0].trimmingCharacters(in: .whitespaces))
        let last = Int(spec[1].trimmingCharacters(in: .whitespaces))
        switch (first, last) {
        case let (start?, end?) where start <= end && start < length:
            return start..<min(end + 1, length)
        case let (start?, nil) where start < length:
            return start..<length
        case let (nil, suffix?) where suffix > 0 && length > 0:
            return max(0, length - suffix)..<length
        default:
            return nil
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let components = duration.components
        return Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 416: "Range Not Satisfiable"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
