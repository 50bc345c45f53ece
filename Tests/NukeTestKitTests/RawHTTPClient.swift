import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A minimal blocking HTTP client over a raw socket, so tests see exactly what the fixture server writes.
/// Every read is bounded by a 10 s receive timeout.
final class RawHTTPClient {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(fd) }

    /// Sends raw request text.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends `GET path` (or another method) with the given extra header lines.
    func request(_ path: String, method: String = "GET", headers: [String] = [], close: Bool = true) {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for header in headers { text += header + "\r\n" }
        if close { text += "Connection: close\r\n" }
        send(text + "\r\n")
    }

    /// Reads until the server closes the connection (or the timeout passes).
    func readToEnd() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// Reads exactly `count` bytes (fewer if the connection closes first).
    func read(count: Int) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count < count {
            let wanted = min(buffer.count, count - data.count)
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
            guard received > 0 else { break }
            data.append(contentsOf: buffer[0..<received])
        }
        return data
    }
}

/// A response split into its head and body.
struct RawResponse {
    let statusLine: String
    let headers: [String: String]
    let body: Data

    init(_ data: Data) {
        let separator = data.range(of: Data("\r\n\r\n".utf8))
        let headEnd = separator?.lowerBound ?? data.endIndex
        let lines = String(decoding: data[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        statusLine = lines.first ?? ""
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        self.headers = headers
        body = separator.map { data[$0.upperBound...] }.map { Data($0) } ?? Data()
    }

    var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }
}
