import Foundation
import NukeTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// nginx serving a temporary document root on `127.0.0.1` over HTTP/1.1, for the loading scenarios. Works like
/// the integration tests' `NginxServer`: the listening socket is made here (port 0) and handed to nginx through
/// its `NGINX` environment variable, so there is no race for a port and no wait for nginx to listen.
final class BenchNginx {
    static let executable = ["/usr/sbin/nginx", "/usr/bin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    let directory: URL
    let root: URL
    let port: Int
    private var pid: pid_t = 0

    /// Starts nginx serving `files` (name → contents); `serverConfig` goes into the `server` block (for example
    /// `add_header Cache-Control "no-cache";`).
    init(files: [String: Data], serverConfig: String = "") throws {
        guard let executable = Self.executable else {
            throw BenchmarkError(description: "nginx is not installed (scripts/setup.sh --benchmarks)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nuke-bench-nginx-\(UUID())")
        root = directory.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for (name, data) in files {
            try data.write(to: root.appendingPathComponent(name))
        }
        let socket = try NginxServer.listeningSocket()  // NukeTestKit's
        defer { close(socket.fd) }
        port = socket.port
        let config = directory.appendingPathComponent("nginx.conf")
        let text = """
            daemon off;
            worker_processes 1;
            pid \(directory.path)/nginx.pid;
            events { worker_connections 4096; }
            http {
                access_log off;
                client_body_temp_path \(directory.path)/tmp-body;
                proxy_temp_path \(directory.path)/tmp-proxy;
                fastcgi_temp_path \(directory.path)/tmp-fastcgi;
                uwsgi_temp_path \(directory.path)/tmp-uwsgi;
                scgi_temp_path \(directory.path)/tmp-scgi;
                keepalive_requests 100000;
                sendfile on;
                types { image/jpeg jpg; application/octet-stream bin; }
                server { listen 127.0.0.1:\(port); root \(root.path); \(serverConfig) }
            }
            """
        try text.write(to: config, atomically: true, encoding: .utf8)
        pid = try Self.spawn(
            executable,
            arguments: [
                "-p", directory.path, "-c", config.path, "-e", directory.appendingPathComponent("error.log").path,
            ],
            inheriting: socket.fd)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func url(_ name: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name)")!
    }

    /// Terminates nginx and waits for it to exit. Idempotent.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        pid = 0
    }

    /// Spawns `executable` with `fd` as descriptor 3 (announced in `NGINX=3;`). Descriptors above 3 are
    /// marked close-on-exec by this process (the benchmark opens nothing else that nginx could inherit).
    private static func spawn(_ executable: String, arguments: [String], inheriting fd: Int32) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let source = fcntl(fd, F_DUPFD_CLOEXEC, 100)
        defer { close(source) }
        posix_spawn_file_actions_adddup2(&actions, source, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let environment: [String] = ["NGINX=3;", "PATH=/usr/sbin:/usr/bin:/sbin:/bin"]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw BenchmarkError(description: "posix_spawn nginx: \(result)") }
        return pid
    }
}

/// Runs a command to completion with its output discarded; returns its exit status.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], currentDirectory: URL? = nil) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}
