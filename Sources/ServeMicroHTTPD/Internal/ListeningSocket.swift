import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket bound to the configured address and listening. The transport makes it and accepts on it itself (see
/// `Acceptor`), so that a failure is reported with its own `errno` and accepting can stop at shutdown without
/// libmicrohttpd's quiesce call.
struct ListeningSocket {
    /// The descriptor, closed by `Acceptor` when it stops (or by `close()` when the server fails to start).
    let descriptor: Int32
    /// The port it listens on (the chosen one when the configuration asked for `0`).
    let port: UInt16

    /// Binds and listens on `address` (an IPv4 or IPv6 literal) and `port`, with `SO_REUSEADDR` so that connections
    /// of an earlier server in `TIME_WAIT` do not block the port.
    init(address: String, port: UInt16) throws(MicroHTTPDServerError) {
        var storage = sockaddr_storage()
        let length: socklen_t
        let isIPv6: Bool
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, address, &ipv4) == 1 {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr = ipv4
            withUnsafeBytes(of: socketAddress) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            isIPv6 = false
        } else if inet_pton(AF_INET6, address, &ipv6) == 1 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            socketAddress.sin6_addr = ipv6
            withUnsafeBytes(of: socketAddress) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            isIPv6 = true
        } else {
            throw .invalidAddress(address)
        }

        let descriptor = socket(
            isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Self.failure("socket") }
        var succeeded = false
        defer { if !succeeded { Glibc.close(descriptor) } }

        var one: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw Self.failure("setsockopt(SO_REUSEADDR)")
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            switch code {
            case EADDRINUSE: throw .addressInUse(address: address, port: port)
            case EADDRNOTAVAIL: throw .addressNotAvailable(address: address, port: port)
            case EACCES: throw .permissionDenied(address: address, port: port)
            default: throw Self.failure("bind", code: code)
            }
        }
        guard listen(descriptor, SOMAXCONN) == 0 else {
            if errno == EADDRINUSE { throw .addressInUse(address: address, port: port) }
            throw Self.failure("listen")
        }

        var boundAddress = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &boundAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
        }
        guard named == 0 else { throw Self.failure("getsockname") }
        // sin_port and sin6_port sit at the same offset, right after the family.
        let boundPort = withUnsafeBytes(of: boundAddress) { $0.load(fromByteOffset: 2, as: UInt16.self) }

        self.descriptor = descriptor
        self.port = UInt16(bigEndian: boundPort)
        succeeded = true
    }

    /// Closes the socket.
    func close() {
        _ = Glibc.close(descriptor)
    }

    private static func failure(_ call: String, code: Int32 = errno) -> MicroHTTPDServerError {
        .socketFailed(call: call, errno: code, message: String(cString: strerror(code)))
    }
}
