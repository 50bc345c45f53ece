public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx serving a directory on loopback ports — HTTP/1.1, cleartext HTTP/2 (h2c), and, when the `openssl`
/// command exists, HTTPS with HTTP/2 over ALPN using a self-signed certificate made for the run — for interop
/// tests, and as the origin of end-to-end tests that count in its access log what reached the server.
///
/// The test creates the listening sockets itself (port 0) and hands them to nginx through nginx's `NGINX`
/// environment variable (its socket-inheritance mechanism), so there is no race for a free port and no need to
/// wait for nginx to start listening: connections queue in the sockets' backlog until it accepts them. nginx
/// runs in the foreground (a master and one worker; nginx 1.22 crashes when inheriting sockets with
/// `master_process off`) with a config, logs and files in a temporary directory; the child gets no descriptor
/// of ours besides the two sockets. ``stop()`` (or `deinit`)
/// terminates it and waits for it to exit.
public final class NginxServer: @unchecked Sendable {
    // @unchecked: every stored property is set in init; `process` is thread-safe.
    /// The nginx binary, if installed (Debian's `nginx-light`, which `scripts/setup.sh` installs).
    public static let executable = ["/usr/sbin/nginx", "/usr/bin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// The `openssl` command, which makes the HTTPS port's certificate; without it there is no HTTPS port.
    public static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Why nginx tests can't run here, if they can't.
    public static var unavailableReason: String? {
        executable == nil ? "nginx is not installed (apt-get install nginx-light); skipping the interop test" : nil
    }

    /// The temporary directory with the config, the logs and the document root (`html`); removed in `deinit`.
    public let directory: URL
    /// The HTTP/1.1 port.
    public let http1Port: Int
    /// The cleartext HTTP/2 (h2c, prior knowledge) port.
    public let http2Port: Int
    /// The HTTPS (HTTP/2 over ALPN) port, if `openssl` could make a certificate.
    public let httpsPort: Int?
    /// The PEM certificate of the HTTPS port (self-signed for `127.0.0.1`), to trust as a CA bundle.
    public let certificatePath: String?
    /// nginx under its watchdog.
    private var process: WatchedProcess?

    /// Starts nginx serving `files` (name → contents; names may have folders), off the Swift concurrency pool (it
    /// runs `openssl` and spawns nginx, which block). `locations` are extra nginx `location` blocks of the
    /// HTTP/1.1 server, such as `location /short/ { expires 1s; }`.
    public static func start(files: [String: Data], locations: String = "") async throws -> NginxServer {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try NginxServer(files: files, locations: locations) })
            }
        }
    }

    /// The URL of `path` (for example `"a.png"`) on the HTTP/1.1 port.
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(http1Port)/\(path)")!
    }

    /// Replaces the served file `name` (a new size gives it a new `ETag`).
    public func replaceFile(_ name: String, with data: Data) throws {
        try data.write(to: directory.appendingPathComponent("html").appendingPathComponent(name))
    }

    /// Stops nginx (see ``stop()``) off the Swift concurrency pool.
    public func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.stop()
                continuation.resume()
            }
        }
    }

    /// Starts nginx serving `files` (name → contents) from its document root.
    private init(files: [String: Data], locations: String) throws {
        guard let executable = Self.executable else { throw NginxError.notInstalled }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-nginx-\(UUID().uuidString)")
        let root = directory.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, data) in files {
            let file = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        let certificate = Self.makeCertificate(in: directory)
        var sockets = [try Self.listeningSocket(), try Self.listeningSocket()]
        if certificate != nil { sockets.append(try Self.listeningSocket()) }
        defer { for socket in sockets { close(socket.fd) } }
        http1Port = sockets[0].port
        http2Port = sockets[1].port
        httpsPort = certificate != nil ? sockets[2].port : nil
        certificatePath = certificate
        let config = directory.appendingPathComponent("nginx.conf")
        try Self.config(
            directory: directory.path, http1Port: http1Port, http2Port: http2Port, httpsPort: httpsPort,
            locations: locations
        )
        .write(to: config, atomically: true, encoding: .utf8)
        process = try WatchedProcess(
            executable: executable,
            arguments: [
                "-p", directory.path, "-c", config.path, "-e", directory.appendingPathComponent("error.log").path,
            ],
            inheriting: sockets.map(\.fd),
            environment: ["NGINX": (0..<sockets.count).map { "\(3 + $0);" }.joined()])
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Terminates nginx and waits for it to exit (its logs are complete afterwards). Idempotent.
    public func stop() {
        process?.stop()  // The watchdog sends nginx SIGTERM and waits for it.
    }

    /// One access-log line: `$connection $connection_requests $server_protocol $status $body_bytes_sent $uri`.
    public struct LogEntry: Sendable {
        /// nginx's connection serial number.
        public let connection: Int
        /// The request's position on its connection (1 for the first).
        public let connectionRequests: Int
        /// `HTTP/1.1` or `HTTP/2.0`.
        public let serverProtocol: String
        /// The response's status code.
        public let status: Int
        /// The body bytes sent.
        public let bytes: Int
        /// The request's path.
        public let uri: String
    }

    /// The access log (complete once ``stop()`` returned).
    public func accessLog() throws -> [LogEntry] {
        let text = try String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 6, let connection = Int(fields[0]), let requests = Int(fields[1]),
                let status = Int(fields[3]), let bytes = Int(fields[4])
            else { return nil }
            return LogEntry(
                connection: connection, connectionRequests: requests, serverProtocol: fields[2], status: status,
                bytes: bytes, uri: fields[5])
        }
    }

    /// nginx's error log, for failure messages.
    public var errorLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
    }

    private static func config(
        directory: String, http1Port: Int, http2Port: Int, httpsPort: Int?, locations: String
    ) -> String {
        let https = httpsPort.map { port in
            "server { listen 127.0.0.1:\(port) ssl http2; ssl_certificate \(directory)/cert.pem; "
                + "ssl_certificate_key \(directory)/key.pem; root \(directory)/html; }"
        }
        return """
            daemon off;
            worker_processes 1;
            pid \(directory)/nginx.pid;
            events { worker_connections 4096; }
            http {
                log_format interop '$connection $connection_requests $server_protocol $status $body_bytes_sent $uri';
                access_log \(directory)/access.log interop;
                client_body_temp_path \(directory)/tmp-body;
                proxy_temp_path \(directory)/tmp-proxy;
                fastcgi_temp_path \(directory)/tmp-fastcgi;
                uwsgi_temp_path \(directory)/tmp-uwsgi;
                scgi_temp_path \(directory)/tmp-scgi;
                keepalive_requests 100000;
                sendfile on;
                types { image/png png; image/jpeg jpg; image/gif gif; image/webp webp; image/avif avif; }
                server { listen 127.0.0.1:\(http1Port); root \(directory)/html; \(locations) }
                server { listen 127.0.0.1:\(http2Port) http2; root \(directory)/html; }
                \(https ?? "")
            }
            """
    }

    /// Makes a self-signed EC certificate for 127.0.0.1 (`cert.pem`, `key.pem`); its path, or `nil`.
    private static func makeCertificate(in directory: URL) -> String? {
        guard let openssl else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.currentDirectoryURL = directory
        process.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-keyout", "key.pem", "-out", "cert.pem", "-subj", "/CN=127.0.0.1", "-addext",
            "subjectAltName=IP:127.0.0.1",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return directory.appendingPathComponent("cert.pem").path
    }

    /// A close-on-exec TCP socket listening on a free port of 127.0.0.1 (its descriptor and port), for handing to
    /// nginx through its `NGINX` variable; the caller closes it once nginx has it.
    ///
    /// - Throws: ``NginxError/socket(_:)``.
    public static func listeningSocket() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw NginxError.socket(errno) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1024) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else {
            let code = errno
            close(fd)
            throw NginxError.socket(code)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// Why ``NginxServer`` could not start.
public enum NginxError: Error {
    /// No nginx binary (see ``NginxServer/unavailableReason``).
    case notInstalled
    /// Creating a listening socket failed with this `errno`.
    case socket(Int32)
}
