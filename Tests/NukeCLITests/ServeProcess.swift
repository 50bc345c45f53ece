import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `nuke serve` process started by a test: it waits for the server's "listening on" line, and ``stop(_:)`` sends
/// a signal and waits for the exit. A process still running when the value is released is killed.
final class ServeProcess: @unchecked Sendable {
    // @unchecked: `stdout` and `stderr` are written by the pipes' handlers and read, all under `lock`.
    let process = Process()
    private(set) var port = 0
    private let lock = NSLock()
    private var stdout = Data()
    private var stderr = Data()

    /// Starts `nuke serve --port 0 arguments…` with `environment` added to the test's — through `launcher` when it
    /// isn't empty (its first element is the program to run, given the rest, then the `nuke` path and arguments) —
    /// and waits (up to 30 s) for it to print `listening on http://127.0.0.1:PORT`.
    init(_ arguments: [String], environment: [String: String] = [:], launcher: [String] = []) async throws {
        let nuke = try NukeProcess.executableURL()
        let command = ["serve", "--port", "0"] + arguments
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [nuke.path] + command
        } else {
            process.executableURL = nuke
            process.arguments = command
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.stdout.append(data) }
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.lock.withLock { self?.stderr.append(data) }
        }
        try process.run()
        // The output is looked at once more after the deadline: a poll that wakes late (the suite's other tests can
        // hold the cooperative pool's threads for seconds) still sees a server that started meanwhile.
        let deadline = Date().addingTimeInterval(30)
        while true {
            if let line = output.stdout.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://") }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                self.port = port
                return
            }
            guard process.isRunning, Date() < deadline else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw NukeProcessError(description: "nuke serve did not start: \(output.stderr)")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// What the process printed so far.
    var output: (stdout: String, stderr: String) {
        lock.withLock { (String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)) }
    }

    /// `http://127.0.0.1:PORT` and `path`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)\(path)"
    }

    /// Sends `signal` and waits (up to 60 s) for the exit; returns the exit status, or -1 if it didn't exit.
    func stop(_ signal: Int32 = SIGTERM) async throws -> Int32 {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return process.isRunning ? -1 : process.terminationStatus
    }
}

/// The `curl` command line as an HTTP client.
enum CurlClient {
    struct Response {
        let status: Int
        /// Header fields of the last response, names lowercased.
        let headers: [String: String]
        let body: Data
    }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") }

    /// Runs `curl` for `url` with `headers` (and `--head` for HEAD, whose response has an empty ``Response/body``) and
    /// returns the response.
    static func get(_ url: String, headers: [String: String] = [:], head: Bool = false) async throws -> Response {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let headerFile = directory.appendingPathComponent("headers").path
        let bodyFile = directory.appendingPathComponent("body").path
        var arguments = ["-sS", "--max-time", "60", "-D", headerFile, "-o", bodyFile]
        if head { arguments.append("--head") }
        for (name, value) in headers { arguments += ["-H", "\(name): \(value)"] }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        guard process.terminationStatus == 0 else {
            throw NukeProcessError(description: "curl \(url) exited with \(process.terminationStatus)")
        }
        let text = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        let blocks = text.components(separatedBy: "\r\n\r\n").filter { !$0.isEmpty }
        let lines = (blocks.last ?? "").components(separatedBy: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // With --head, curl writes the head to the output file too: a HEAD response has no body to read.
        let body = head ? Data() : (try? Data(contentsOf: URL(fileURLWithPath: bodyFile))) ?? Data()
        return Response(status: status, headers: fields, body: body)
    }
}
