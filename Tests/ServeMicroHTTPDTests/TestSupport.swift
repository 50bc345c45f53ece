import Foundation
import NukeServe
import ServeMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A handler made of a closure.
struct ClosureHandler: ServeHandler {
    let body: @Sendable (ServeRequest) async -> ServeResponse

    init(_ body: @escaping @Sendable (ServeRequest) async -> ServeResponse) {
        self.body = body
    }

    func respond(to request: ServeRequest) async -> ServeResponse {
        await body(request)
    }
}

/// Values that tests collect from handlers, behind a lock.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }
}

/// Starts a server on 127.0.0.1, port 0, with `workerThreads` threads.
func startServer(
    workerThreads: Int = 2, configure: (inout MicroHTTPDServer.Configuration) -> Void = { _ in },
    _ body: @escaping @Sendable (ServeRequest) async -> ServeResponse
) throws -> MicroHTTPDServer {
    var configuration = MicroHTTPDServer.Configuration()
    configuration.workerThreads = workerThreads
    configure(&configuration)
    return try MicroHTTPDServer(configuration: configuration, handler: ClosureHandler(body))
}

/// What one run of the curl command-line tool gave.
struct CurlResult {
    /// curl's exit code: 0 on success, 7 when it could not connect.
    var exitCode: Int32
    /// The status of the last response, or 0.
    var status: Int
    /// The header fields of the last response, in order.
    var headers: [(name: String, value: String)]
    /// The body (of every response, when several URLs were fetched).
    var body: Data
    /// What `--write-out` printed.
    var output: String

    /// The value of the first header field named `name` (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Every value of the header field `name` (any case).
    func headers(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }
}

/// Runs `curl` with `arguments` (plus `-s`, a header dump and an output file per URL) and waits for it to exit.
func curl(_ arguments: [String]) async throws -> CurlResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-curl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let headerFile = directory.appendingPathComponent("headers")
    // One output file per URL (curl's -o applies to one URL), concatenated in order.
    let urlCount = arguments.filter { $0.hasPrefix("http://") }.count
    let bodyFiles = (0..<max(urlCount, 1)).map { directory.appendingPathComponent("body-\($0)") }
    let outputFile = directory.appendingPathComponent("output")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputFile)
    defer { try? output.close() }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments =
        ["-s", "--max-time", "120", "-D", headerFile.path] + bodyFiles.flatMap { ["-o", $0.path] } + arguments
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let exitCode: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    let head = (try? String(contentsOf: headerFile, encoding: .utf8)) ?? ""
    // With several responses (redirects, several URLs), the last head counts.
    let lastHead = head.components(separatedBy: "\r\n\r\n").last { !$0.isEmpty } ?? ""
    let lines = lastHead.components(separatedBy: "\r\n")
    let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    return CurlResult(
        exitCode: exitCode, status: status, headers: headers,
        body: bodyFiles.reduce(into: Data()) { $0.append((try? Data(contentsOf: $1)) ?? Data()) },
        output: (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "")
}

/// The URL of `path` on `server`.
func url(_ server: MicroHTTPDServer, _ path: String) -> String {
    "http://127.0.0.1:\(server.port)\(path)"
}

/// Opens once `count` parties have arrived, or after `timeout` seconds so that a failing test ends instead of
/// hanging; reports the most parties that were waiting at once.
final class Barrier: @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `lock`.
    private let lock = NSLock()
    private let count: Int
    private var arrived = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    init(count: Int, timeout: TimeInterval) {
        self.count = count
        Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
            self?.open()
        }
    }

    /// How many parties arrived before it opened (the most that were in the handler at once).
    var arrivedBeforeOpening: Int {
        lock.lock()
        defer { lock.unlock() }
        return arrived
    }

    func arriveAndWait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if isOpen {
                lock.unlock()
                continuation.resume()
                return
            }
            arrived += 1
            waiting.append(continuation)
            let full = arrived >= count
            lock.unlock()
            if full { open() }
        }
    }

    private func open() {
        lock.lock()
        isOpen = true
        let waiting = self.waiting
        self.waiting = []
        lock.unlock()
        for continuation in waiting { continuation.resume() }
    }
}

/// Sends `request` (raw bytes) to 127.0.0.1:`port` and returns everything received until the server closes the
/// connection; for what curl does not show, such as whether a HEAD response has a body.
func exchange(port: UInt16, request: String) async throws -> Data {
    let received = await onThreadOfItsOwn { blockingExchange(port: port, request: request) }
    guard let received else { throw POSIXError(.ECONNREFUSED) }
    return received
}

/// `exchange(port:request:)` on the calling thread, which it blocks; nil when the connection is refused.
func blockingExchange(port: UInt16, request: String) -> Data? {
    guard let descriptor = openConnection(port: port) else { return nil }
    defer { close(descriptor) }
    _ = request.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received.append(contentsOf: buffer[0..<count])
    }
    return received
}

/// Runs `body` on a new thread and returns its result: for blocking calls, which would otherwise hold one of the few
/// threads that Swift's tasks and Dispatch's global queues share (two on a two-core machine).
func onThreadOfItsOwn<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Whether a TCP connection to 127.0.0.1:`port` is accepted (it is closed at once, before any request).
func canConnect(port: UInt16) -> Bool {
    guard let descriptor = openConnection(port: port) else { return false }
    close(descriptor)
    return true
}

/// Opens a TCP connection to 127.0.0.1:`port` and returns its descriptor (the caller closes it), or nil when the
/// connection is refused.
func openConnection(port: UInt16) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard connected else {
        close(descriptor)
        return nil
    }
    return descriptor
}
