public import Foundation

/// A `redis-server` for one test: persistence off, listening on a Unix socket in a temporary directory (and on a
/// loopback TCP port when asked), run as a `WatchedProcess`, so it stops when the test process goes away, even if it
/// crashes. ``stop()`` (also run by `deinit`) stops it and waits.
public final class RedisServer: @unchecked Sendable {
    // @unchecked: `process` is replaced only by start() and stop(), which a test calls from one task.
    /// The `redis-server` binary, if installed (Debian's `redis-server`, which `scripts/setup.sh` installs).
    public static let executable = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Why Redis tests can't run here, if they can't.
    public static var unavailableReason: String? {
        executable == nil ? "redis-server is not installed (scripts/setup.sh installs it); skipping" : nil
    }

    /// The server's temporary directory (its socket and log).
    public let directory: URL
    /// The Unix socket it listens on.
    public let socketPath: String
    /// Its loopback TCP port, if it has one.
    public let port: Int?
    private let arguments: [String]
    private var process: WatchedProcess?

    /// The URL of the Unix socket.
    public var url: String { "unix://\(socketPath)" }
    /// The URL of the TCP port, if the server has one.
    public var tcpURL: String? { port.map { "redis://127.0.0.1:\($0)/0" } }

    /// Starts a server with `arguments` added to its command line (`--maxmemory 8mb`, say) and waits until it answers.
    public init(tcp: Bool = false, arguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("redis.sock").path
        port = tcp ? try Self.freePort() : nil
        self.arguments = arguments
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the server again after ``stop()``: the same socket and port, empty.
    public func restart() throws {
        try start()
    }

    private func start() throws {
        guard let executable = Self.executable else { throw RedisServerError("redis-server is not installed") }
        let command = [
            "--port", "\(port ?? 0)", "--bind", "127.0.0.1", "--unixsocket", socketPath, "--save", "",
            "--appendonly", "no", "--dir", directory.path, "--daemonize", "no", "--loglevel", "warning",
            "--logfile", directory.appendingPathComponent("redis.log").path,
        ]
        process = try WatchedProcess(executable: executable, arguments: command + arguments)
        let deadline = Date(timeIntervalSinceNow: 10)
        while !Self.answers(socketPath) {
            guard Date() < deadline else { throw RedisServerError("redis-server didn't start: \(log)") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Stops the server and waits for it to exit.
    public func stop() {
        process?.stop()
        process = nil
        try? FileManager.default.removeItem(atPath: socketPath)
    }

    /// The server's log.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("redis.log"), encoding: .utf8)) ?? ""
    }

    /// Whether something answers `PING` on the socket.
    private static func answers(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(107))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { return false }
        let ping = Array("PING\r\n".utf8)
        guard write(fd, ping, ping.count) == ping.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        return read(fd, &buffer, buffer.count) > 0 && buffer.starts(with: Array("+PONG".utf8))
    }

    /// A loopback port that was free a moment ago.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RedisServerError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(fd, pointer, length) == 0 else { return -1 }
                return getsockname(fd, pointer, &length)
            }
        }
        guard bound == 0 else { throw RedisServerError("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why a ``RedisServer`` couldn't start.
public struct RedisServerError: Error, CustomStringConvertible {
    /// What went wrong, with the server's log where it helps.
    public let description: String
    init(_ description: String) { self.description = description }
}
