import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif
import LoaderCurl
import NukeCore
import NukeTestKit
import Testing

/// Loads `request` and waits (bounded) for its completion.
func load(
    _ loader: any DataLoading, _ request: URLRequest, storage: RecordedLoad.BodyStorage = .keep
) async throws
    -> RecordedLoad
{
    let load = RecordedLoad(loader: loader, request: request, storage: storage)
    try await load.waitForCompletion(timeout: .seconds(30))
    #expect(load.violations.isEmpty, "\(load.violations)")
    return load
}

func load(_ loader: any DataLoading, _ url: URL) async throws -> RecordedLoad {
    try await load(loader, URLRequest(url: url))
}

extension RecordedLoad {
    var curlError: CurlError? { error as? CurlError }
}

/// A listening socket whose accept queue is full, so new connection attempts hang in the SYN stage: the
/// target for connect-timeout tests. Closes its sockets on `deinit`.
final class UnacceptingListener {
    let port: Int
    private var fds: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        fds.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard listen(listener, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        // Fill the accept queue (backlog 0 holds one connection); extra attempts just stay pending.
        for _ in 0..<3 {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            fds.append(client)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    deinit {
        for fd in fds { close(fd) }
    }
}

/// The number of this process's open sockets connected to `port` on 127.0.0.1 (client side), found by matching
/// `/proc/self/fd` against `/proc/net/tcp`. Other tests' sockets never match a fixture server's port.
func clientSocketCount(toPort port: Int) -> Int {
    // String(contentsOfFile:) stops after the first read of a /proc file; read to the end instead.
    guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return -1 }
    let table = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    try? handle.close()
    let remote = String(format: "0100007F:%04X", port)
    var inodes = Set<String>()
    for line in table.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 9, fields[2] == remote else { continue }
        inodes.insert(String(fields[9]))
    }
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.filter { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
            target.hasPrefix("socket:[")
        else { return false }
        return inodes.contains(String(target.dropFirst("socket:[".count).dropLast()))
    }.count
}
