import Foundation
import NukeTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// A server process of the `serve` section: spawned with its standard output and error in a log file and, when it
/// takes them, listening sockets made here (port 0) as descriptors 3, 4, … — no race for a port and no wait for
/// it to listen. Stopped with `SIGTERM` (and waited for) by ``stop()`` or `deinit`.
final class ServeProcess {
    let name: String
    let pid: pid_t
    let log: URL
    private var isRunning = true

    /// Spawns `executable`; `sockets` become descriptors 3, 4, … in the child (this process keeps its copies
    /// close-on-exec and closes nothing: the caller owns them).
    init(
        name: String, executable: String, arguments: [String], environment: [String] = [], sockets: [Int32] = [],
        log: URL
    ) throws {
        self.name = name
        self.log = log
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Above the range the dup2s write, so that no source descriptor is overwritten before it is copied.
        let sources = sockets.map { fcntl($0, F_DUPFD_CLOEXEC, 100) }
        defer { for source in sources { close(source) } }
        for (index, source) in sources.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, source, Int32(3 + index))
        }
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/tmp"
        // The defaults first, each replaced by a variable of `environment` with the same name.
        let defaults = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=\(home)"].filter { variable in
            !environment.contains { $0.hasPrefix(variable.prefix { $0 != "=" } + "=") }
        }
        let envp = (defaults + environment).map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw BenchmarkError(description: "posix_spawn \(executable): \(result)") }
        self.pid = pid
    }

    deinit { stop() }

    /// Sends `SIGTERM`, waits up to 15 s for the process to exit, then sends `SIGKILL` and waits. Idempotent.
    func stop() {
        guard isRunning else { return }
        isRunning = false
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) { return }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Waits for the process to exit by itself and returns its exit status (or 128 + the signal that ended it).
    func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        isRunning = false
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The process's peak resident set (`VmHWM` of `/proc/PID/status`) in MB.
    func peakResidentMegabytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { throw BenchmarkError(description: "no VmHWM for \(name) (pid \(pid))") }
        return kilobytes / 1024
    }

    /// The last lines of the log, for error messages.
    func logTail() -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: " | ")
    }

    /// Waits until `url` answers 200 (polling with the curl CLI for up to `timeout` seconds).
    func waitUntilReady(_ url: String, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let response = try? HTTPProbe.get(url), response.status == 200 { return }
            var result: Int32 = 0
            guard waitpid(pid, &result, WNOHANG) == 0 else {
                isRunning = false
                throw BenchmarkError(description: "\(name) exited at start: \(logTail())")
            }
            usleep(100_000)
        }
        throw BenchmarkError(description: "\(name) did not answer \(url) within \(Int(timeout)) s: \(logTail())")
    }
}

/// One request made with the curl CLI: status, `Content-Type` and body.
struct HTTPProbe {
    var status: Int
    var contentType: String
    var body: Data

    static func get(_ url: String, accept: String? = nil) throws -> HTTPProbe {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-probe-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        var arguments = ["-s", "--max-time", "30", "-o", file.path, "-w", "%{http_code} %{content_type}"]
        if let accept { arguments += ["-H", "Accept: \(accept)"] }
        let (status, output) = try DebugBuildBenchmark.execute("/usr/bin/curl", arguments + [url])
        guard status == 0 else { throw BenchmarkError(description: "curl \(url) failed (\(status))") }
        let parts = output.split(separator: " ", maxSplits: 1)
        return HTTPProbe(
            status: parts.first.flatMap { Int($0) } ?? 0, contentType: parts.count > 1 ? String(parts[1]) : "",
            body: (try? Data(contentsOf: file)) ?? Data())
    }
}

/// The two nginx processes of the `serve` section, each from a temporary config with its sockets inherited:
/// - the origin (one worker), serving the 1600 px JPEG every service fetches;
/// - the references (`worker_processes auto`, as Debian's nginx.conf has it): `image_filter resize 300 -` with
///   quality 80 proxying the origin (a query string reaches the origin, which ignores it), and the pre-made result
///   as a static file.
final class ServeNginx {
    static let moduleCandidates = [
        "/usr/lib/nginx/modules/ngx_http_image_filter_module.so",
        "/usr/share/nginx/modules/ngx_http_image_filter_module.so",
    ]

    let directory: URL
    let root: URL
    let originPort: Int
    let filterPort: Int
    let staticPort: Int
    private let processes: [ServeProcess]

    /// Why the section can't run its nginx parts, or `nil`.
    static var unavailableReason: String? {
        if BenchNginx.executable == nil { return "nginx is missing (scripts/setup.sh --benchmarks)" }
        if imageFilterModule == nil {
            return "the image_filter module is missing (scripts/setup.sh --benchmarks installs "
                + "libnginx-mod-http-image-filter)"
        }
        return nil
    }

    static var imageFilterModule: String? {
        moduleCandidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Starts both with `files` (name → contents) in the shared document root.
    init(files: [String: Data], directory: URL) throws {
        guard let executable = BenchNginx.executable, let module = Self.imageFilterModule else {
            throw BenchmarkError(description: Self.unavailableReason ?? "nginx is missing")
        }
        self.directory = directory
        root = directory.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: root.appendingPathComponent(name)) }
        let sockets = try (0..<3).map { _ in try NginxServer.listeningSocket() }
        defer { for socket in sockets { close(socket.fd) } }
        (originPort, filterPort, staticPort) = (sockets[0].port, sockets[1].port, sockets[2].port)

        func start(
            _ name: String, workers: String, preamble: String, servers: String, fds: [Int32]
        ) throws
            -> ServeProcess
        {
            let prefix = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
            let config = """
                daemon off;
                worker_processes \(workers);
                pid \(prefix.path)/nginx.pid;
                \(preamble)
                events { worker_connections 4096; }
                http {
                    access_log off;
                    client_body_temp_path \(prefix.path)/tmp-body;
                    proxy_temp_path \(prefix.path)/tmp-proxy;
                    fastcgi_temp_path \(prefix.path)/tmp-fastcgi;
                    uwsgi_temp_path \(prefix.path)/tmp-uwsgi;
                    scgi_temp_path \(prefix.path)/tmp-scgi;
                    keepalive_requests 100000;
                    sendfile on;
                    types { image/jpeg jpg; }
                    \(servers)
                }
                """
            let path = prefix.appendingPathComponent("nginx.conf")
            try config.write(to: path, atomically: true, encoding: .utf8)
            let descriptors = fds.indices.map { "\(3 + $0);" }.joined()
            return try ServeProcess(
                name: "nginx (\(name))", executable: executable,
                arguments: ["-p", prefix.path, "-c", path.path, "-e", prefix.appendingPathComponent("error.log").path],
                environment: ["NGINX=\(descriptors)"], sockets: fds, log: prefix.appendingPathComponent("stdout.log"))
        }
        let origin = try start(
            "origin", workers: "1", preamble: "",
            servers: "server { listen 127.0.0.1:\(originPort); root \(root.path); }", fds: [sockets[0].fd])
        let references = try start(
            "references", workers: "auto", preamble: "load_module \(module);",
            servers: """
                upstream origin { server 127.0.0.1:\(originPort); keepalive 16; }
                    server {
                        listen 127.0.0.1:\(filterPort);
                        location / {
                            proxy_pass http://origin;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            image_filter resize 300 -;
                            image_filter_jpeg_quality 80;
                            image_filter_buffer 20M;
                        }
                    }
                    server { listen 127.0.0.1:\(staticPort); root \(root.path); }
                """,
            fds: [sockets[1].fd, sockets[2].fd])
        processes = [origin, references]
    }

    func stop() {
        for process in processes { process.stop() }
    }
}

extension ServeNginx {
    /// Waits until the origin and the static server answer.
    func waitUntilReady() throws {
        for (process, port) in [(processes[0], originPort), (processes[1], staticPort)] {
            try process.waitUntilReady("http://127.0.0.1:\(port)/photo.jpg")
        }
    }
}
