#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// Thin wrappers over the POSIX socket calls the fixture server uses. File descriptors are created close-on-exec
/// (child processes started by tests don't inherit them) and writes never raise `SIGPIPE`.
enum Socket {
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32

        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A TCP socket listening on `127.0.0.<lastOctet>` at `port`, or at a port the kernel picks when it is 0;
    /// returns the descriptor and the port.
    static func listenOnLoopback(
        backlog: Int32 = 128, lastOctet: UInt8 = 1, port: UInt16 = 0
    ) throws(Failure) -> (fd: Int32, port: Int) {
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
            let type = SOCK_STREAM | SOCK_CLOEXEC
        #endif
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = (in_addr_t(0x7F00_0000) | in_addr_t(lastOctet)).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "bind", code: code)
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw Failure(call: "getsockname", code: code)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Accepts a connection (close-on-exec); `nil` on failure.
    static func accept(_ fd: Int32) -> Int32? {
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { return nil }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        return client
    }

    /// Receives up to `buffer.count` bytes; 0 means the peer closed (or the socket was shut down), -1 an error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Sends all of `bytes`; `false` if the peer went away (no `SIGPIPE`).
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { sendAll(fd, $0) }
    }

    /// Waits until one of `fds` is readable (or hung up) or `timeout` milliseconds pass (-1 = forever).
    /// Returns the indices of the ready descriptors (empty on timeout).
    static func waitReadable(_ fds: [Int32], timeout: Int32) -> [Int] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let result = poll(&entries, nfds_t(entries.count), timeout)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return [] }
            return entries.indices.filter { entries[$0].revents != 0 }
        }
    }
}

/// A pipe that becomes readable forever once ``signal()`` is called; threads poll it to learn about shutdown.
final class WakePipe: @unchecked Sendable {
    // @unchecked: the descriptors are immutable after init; `signal()` and polling are thread-safe syscalls.
    let readFD: Int32
    private let writeFD: Int32

    init() throws(Socket.Failure) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw Socket.Failure(call: "pipe", code: errno) }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Makes the read end readable; it is never drained, so every later poll sees it too.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Sleeps for `milliseconds` unless signalled first; returns `false` if it was signalled.
    func sleep(milliseconds: Int) -> Bool {
        Socket.waitReadable([readFD], timeout: Int32(clamping: milliseconds)).isEmpty
    }
}
