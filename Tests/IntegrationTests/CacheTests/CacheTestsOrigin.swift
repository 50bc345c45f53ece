import Foundation
import NukeTestKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The cache-tests suite's origin server (`test-engine/server`, Node built-ins), started with its `loopback.mjs`
/// entry on 127.0.0.1 and a free port, under a ``WatchedProcess`` so it can't outlive the test process.
final class CacheTestsOrigin: Sendable {
    /// Why the server could not be started or asked.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let base: URL
    private let process: WatchedProcess
    private let session: URLSession

    /// The suite's files: `Tests/Fixtures/cache-tests`.
    static let suiteDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/cache-tests")

    /// Starts the server and waits until it listens (it writes its port to a FIFO we read).
    ///
    /// - Throws: ``Failure`` when `node` is missing (`scripts/setup.sh` installs it) or the server doesn't start.
    init() throws {
        let node = ["/usr/bin/node", "/usr/bin/nodejs", "/usr/local/bin/node"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let node else { throw Failure(description: "node is missing: run scripts/setup.sh (Debian's nodejs)") }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("cache-tests-port-\(UUID())").path
        guard mkfifo(fifo, 0o600) == 0 else {
            throw Failure(description: "mkfifo: \(String(cString: strerror(errno)))")
        }
        defer { unlink(fifo) }
        // Opened before the server starts, non-blocking: the open can't wait for a writer that never comes.
        let descriptor = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let script = Self.suiteDirectory.appendingPathComponent("test-engine/server/loopback.mjs").path
        process = try WatchedProcess(executable: node, arguments: [script, "0", fifo])
        let port = try Self.readPort(from: descriptor)
        base = URL(string: "http://127.0.0.1:\(port)")!
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
        process.stop()
    }

    /// The port line the server writes once it listens. A server that fails to start never writes: after a minute
    /// that is an error, not a hang.
    private static func readPort(from descriptor: Int32) throws -> Int {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 64)
        while !text.contains("\n") {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 60_000)
            guard ready > 0 else { throw Failure(description: "the cache-tests server did not start") }
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                text += String(decoding: buffer[..<count], as: UTF8.self)
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                throw Failure(description: "the cache-tests server exited before it listened")
            }
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), port > 0 else {
            throw Failure(description: "the cache-tests server wrote no port: \(text)")
        }
        return port
    }

    /// `/test/UUID[/filename][?query]`: the URL of a test's requests.
    func testURL(uuid: String, filename: String?, query: String?) -> URL {
        var text = base.absoluteString + "/test/\(uuid)"
        if let filename { text += "/\(filename)" }
        if let query { text += "?\(query)" }
        return URL(string: text)!
    }

    /// `PUT /config/UUID`: the requests the server answers for the test, in order.
    func configure(uuid: String, requests: [CacheTestsJSON]) async throws {
        var request = URLRequest(url: base.appendingPathComponent("config/\(uuid)"))
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(CacheTestsJSON.array(requests))
        let (_, status) = try await send(request)
        guard status == 201 else { throw Failure(description: "PUT /config answered \(status)") }
    }

    /// `GET /state/UUID`: what the server saw of each request it received, in order (empty when it saw none).
    func state(uuid: String) async throws -> [CacheTestsJSON] {
        let (data, status) = try await send(URLRequest(url: base.appendingPathComponent("state/\(uuid)")))
        guard status == 200 else { return [] }
        return try JSONDecoder().decode(CacheTestsJSON.self, from: data).array ?? []
    }

    private func send(_ request: URLRequest) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
                }
            }.resume()
        }
    }
}
