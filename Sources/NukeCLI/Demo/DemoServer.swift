#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// A tiny HTTP/1.1 file server on `127.0.0.1` at a free port, for `nuke demo`: `GET` and `HEAD` of fixed files
/// with `Content-Length` and keep-alive, `404` for unknown paths, `405` for other methods. It simulates a
/// network: each response waits `latency` plus the time its body takes at `bytesPerSecond`.
///
/// Files carry the caching headers an image host sends (`Cache-Control: public, max-age=…`, a strong `ETag` of
/// the bytes, `Last-Modified` of when the server started, `Date`), and a conditional `GET` whose `If-None-Match`
/// or `If-Modified-Since` matches is answered `304 Not Modified` with no body.
///
/// One thread accepts; each connection has its own thread. ``shutdown()`` closes everything and returns once
/// every thread has exited. Thread-safe.
final class DemoServer: @unchecked Sendable {
    // @unchecked: `state` is read and written only while `lock` is held; the rest is immutable after init.
    let port: Int
    private let files: [String: DemoImageSet.File]
    private let latency: Double
    private let bytesPerSecond: Double
    private let maxAge: Int
    private let lastModified: String
    private let etags: [String: String]
    private let listenFD: Int32
    private let wake: DemoWakePipe
    private let threads = DispatchGroup()
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var connections: Set<Int32> = []
        var isShutDown = false
        var requestCount = 0
        var connectionCount = 0
        var bytesSent = 0
        var notModifiedCount = 0
    }

    /// Counters for the report.
    struct Statistics {
        var requests: Int
        var connections: Int
        var bytesSent: Int
        /// Conditional requests answered `304 Not Modified`.
        var notModified: Int
    }

    /// - Parameter maxAge: the freshness lifetime each file is served with (`Cache-Control: max-age`), in seconds.
    init(
        files: [DemoImageSet.File], latency: Double = 0.015, bytesPerSecond: Double = 20_000_000, maxAge: Int = 86_400
    ) throws {
        self.files = Dictionary(files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.latency = latency
        self.bytesPerSecond = bytesPerSecond
        self.maxAge = maxAge
        lastModified = Self.httpDate(Date())
        etags = self.files.mapValues(Self.etag)
        (listenFD, port) = try DemoSocket.listenOnLoopback()
        do {
            wake = try DemoWakePipe()
        } catch {
            close(listenFD)
            throw error
        }
        threads.enter()
        Thread { [self] in
            acceptLoop()
            threads.leave()
        }.start()
    }

    deinit {
        shutdown()
        close(listenFD)
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    var statistics: Statistics {
        lock.withLock {
            Statistics(
                requests: state.requestCount, connections: state.connectionCount, bytesSent: state.bytesSent,
                notModified: state.notModifiedCount)
        }
    }

    /// Closes every connection, stops accepting and waits for the server's threads. Idempotent.
    func shutdown() {
        let first = lock.withLock {
            guard !state.isShutDown else { return false }
            state.isShutDown = true
            for fd in state.connections { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        wake.signal()
        threads.wait()
    }

    private func acceptLoop() {
        while DemoSocket.waitReadable([listenFD, wake.readFD], timeout: -1) == [0] {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            let accepted = lock.withLock {
                guard !state.isShutDown else { return false }
                state.connections.insert(fd)
                state.connectionCount += 1
                threads.enter()
                return true
            }
            guard accepted else {
                close(fd)
                continue
            }
            Thread { [self] in
                serve(fd)
                lock.withLock {
                    state.connections.remove(fd)
                    close(fd)
                }
                threads.leave()
            }.start()
        }
    }

    /// Answers requests on one connection until the client closes it, asks to, or the server shuts down.
    private func serve(_ fd: Int32) {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 8192)
        let separator = Data("\r\n\r\n".utf8)
        while true {
            guard let end = buffer.range(of: separator) else {
                guard buffer.count < 32 * 1024 else { return }
                let count = chunk.withUnsafeMutableBytes { DemoSocket.receive(fd, into: $0) }
                guard count > 0 else { return }
                buffer.append(contentsOf: chunk[0..<count])
                continue
            }
            let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex..<end.upperBound)
            let lines = head.components(separatedBy: "\r\n")
            let parts = lines[0].split(separator: " ")
            guard parts.count == 3 else { return }
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let closes = headers["connection"]?.lowercased().contains("close") ?? false
            let path = String(parts[1].prefix { $0 != "?" })
            guard respond(fd, method: String(parts[0]), path: path, headers: headers, closes: closes), !closes else {
                return
            }
        }
    }

    private func respond(_ fd: Int32, method: String, path: String, headers: [String: String], closes: Bool) -> Bool {
        lock.withLock { state.requestCount += 1 }
        let status: String
        var body = Data()
        var contentType = "text/plain"
        var caching = ""
        if method != "GET" && method != "HEAD" {
            status = "405 Method Not Allowed"
            body = Data("GET only\n".utf8)
        } else if let file = files[path], let etag = etags[path] {
            caching =
                "Cache-Control: public, max-age=\(maxAge)\r\nETag: \(etag)\r\nLast-Modified: \(lastModified)\r\n"
                + "Date: \(Self.httpDate(Date()))\r\n"
            // If-None-Match wins over If-Modified-Since (RFC 9110, 13.2.2); Last-Modified never changes here.
            let notModified =
                if let tags = headers["if-none-match"] {
                    tags == "*"
                        || tags.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
                } else {
                    headers["if-modified-since"] == lastModified
                }
            if notModified {
                status = "304 Not Modified"
                lock.withLock { state.notModifiedCount += 1 }
            } else {
                status = "200 OK"
                body = file.data
            }
            contentType = file.contentType
        } else {
            status = "404 Not Found"
            body = Data("not found\n".utf8)
        }
        let delay = latency + Double(body.count) / bytesPerSecond
        guard wake.sleep(milliseconds: Int(delay * 1000)) else { return false }
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\n"
            // A 304's Content-Length would describe the representation, not this empty body: none is sent.
            + (status.hasPrefix("304") ? "" : "Content-Length: \(body.count)\r\n") + caching
            + "Connection: \(closes ? "close" : "keep-alive")\r\n\r\n"
        var response = Data(head.utf8)
        if method != "HEAD" { response.append(body) }
        lock.withLock { state.bytesSent += response.count }
        return DemoSocket.send(fd, response)
    }
}

extension DemoServer {
    /// `date` in HTTP's date format (IMF-fixdate, RFC 9110), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// A strong entity tag of a file's bytes: the 64-bit FNV-1a hash and the length, quoted.
    static func etag(_ file: DemoImageSet.File) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in file.data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))-\(file.data.count)\""
    }
}
