// Starts and stops MicroHTTPDServer `cycles` times in this process (argument 1, default 20) and prints the number of
// open file descriptors (from /proc/self/fd) after a warm-up cycle and after the last one: "fds <before> <after>",
// then both lists if they differ. Each cycle serves two
// requests on one keep-alive connection, leaves a second connection open and idle, and shuts down with grace. A
// process of its own, so that the count is not disturbed by tests running in parallel.
import Foundation
import NukeServe
import ServeMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

struct Echo: ServeHandler {
    func respond(to request: ServeRequest) async -> ServeResponse {
        ServeResponse(status: 200, body: Data(request.path.utf8))
    }
}

/// The open descriptors and what they refer to, except libdispatch's timerfds: it makes one per clock the first time a
/// timer on that clock is armed, which may happen in any cycle (the server makes none).
func openDescriptors() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return names.sorted().compactMap { name in
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) ?? "?"
        return target == "anon_inode:[timerfd]" ? nil : "\(name)=\(target)"
    }
}

/// Connects to 127.0.0.1:`port`; returns the descriptor.
func connectLoopback(port: UInt16) -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    precondition(result == 0, "connect failed: \(String(cString: strerror(errno)))")
    return descriptor
}

/// Sends a GET for `path` and reads until the whole response (head and Content-Length bytes) has arrived.
func get(_ path: String, on descriptor: Int32) -> String {
    let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        precondition(count > 0, "the connection closed early")
        received += buffer[0..<count]
        let text = String(decoding: received, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { continue }
        let head = text[..<end.lowerBound].lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if text[end.upperBound...].utf8.count >= length { return text }
    }
}

func cycle() async {
    let server: MicroHTTPDServer
    do {
        var configuration = MicroHTTPDServer.Configuration()
        configuration.workerThreads = 2
        server = try MicroHTTPDServer(configuration: configuration, handler: Echo())
    } catch {
        fatalError("the server did not start: \(error)")
    }
    let keepAlive = connectLoopback(port: server.port)
    precondition(get("/one", on: keepAlive).hasSuffix("/one"))
    precondition(get("/two", on: keepAlive).hasSuffix("/two"))
    let idle = connectLoopback(port: server.port)
    await server.shutdown(grace: 1)
    close(keepAlive)
    close(idle)
}

let cycles = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 20 : 20
await cycle()
let before = openDescriptors()
for _ in 0..<cycles {
    await cycle()
}
let after = openDescriptors()
print("fds \(before.count) \(after.count)")
if before != after {
    print("before: \(before.joined(separator: " "))")
    print("after: \(after.joined(separator: " "))")
}
