#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// The POSIX socket calls of ``DemoServer``. Descriptors are close-on-exec; sends never raise `SIGPIPE`.
enum DemoSocket {
    /// A TCP socket listening on `127.0.0.1` at a port the kernel picks.
    static func listenOnLoopback() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DemoError("socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw DemoError("could not listen on 127.0.0.1: \(message)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Waits until one of `fds` is readable (or hung up) or `timeout` ms pass (-1: forever); the ready indices.
    static func waitReadable(_ fds: [Int32], timeout: Int32) -> [Int] {
        var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let result = poll(&entries, nfds_t(entries.count), timeout)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return [] }
            return entries.indices.filter { entries[$0].revents != 0 }
        }
    }

    /// Receives into `buffer`; 0 when the peer closed, -1 on error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Sends all of `data`; `false` if the peer went away.
    static func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }
}

/// A pipe that stays readable once signalled: threads poll it with their sockets to learn about shutdown.
final class DemoWakePipe: Sendable {
    let readFD: Int32
    private let writeFD: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw DemoError("pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Sleeps `milliseconds` unless signalled; `false` if signalled.
    func sleep(milliseconds: Int) -> Bool {
        DemoSocket.waitReadable([readFD], timeout: Int32(clamping: milliseconds)).isEmpty
    }
}
