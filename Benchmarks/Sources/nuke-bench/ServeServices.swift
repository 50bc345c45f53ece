import Foundation
import NukeTestKit

#if canImport(Glibc)
    import Glibc
#endif

/// `nuke serve --port 0 --allow-source-addresses 127.0.0.1 --cache-dir DIR` and the given arguments (its defaults
/// otherwise: a worker per core, results and sources in memory and on disk), its port read from the `listening on`
/// line of its output.
final class NukeServeProcess {
    let process: ServeProcess
    let base: String

    /// Starts `nuke serve` with its cache directory in `directory`, plus `arguments`.
    init(executable: String, directory: URL, arguments: [String] = []) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = directory.appendingPathComponent("serve.log")
        process = try ServeProcess(
            name: "nuke serve", executable: executable,
            arguments: [
                "serve", "--port", "0", "--allow-source-addresses", "127.0.0.1", "--cache-dir",
                directory.appendingPathComponent("cache").path,
            ] + arguments,
            log: log)
        let deadline = Date().addingTimeInterval(30)
        var found: String?
        while found == nil, Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            found = text.split(separator: "\n").first { $0.hasPrefix("listening on ") }.map {
                String($0.dropFirst("listening on ".count))
            }
            if found == nil { usleep(50_000) }
        }
        guard let found else {
            process.stop()
            throw BenchmarkError(description: "nuke serve did not start: \(process.logTail())")
        }
        base = found
        try process.waitUntilReady(base + "/health")
    }
}

/// thumbor 7.8 from `Benchmarks/.venv-thumbor` (`scripts/setup.sh --benchmarks`), one process (its default), on a
/// socket made here (`--fd 3`, non-blocking as thumbor's event loop needs it). Its configuration: the HTTP loader, file storage of the sources and file result
/// storage (`RESULT_STORAGE_STORES_UNSAFE`), unsafe URLs, quality 80 and baseline JPEGs (as `nuke serve` and nginx
/// write them), `AUTO_WEBP` and `AUTO_AVIF` for the `Accept` rows with AVIF at libaom speed 8 (`nuke serve`'s).
final class ThumborProcess {
    static let venv = BenchContext.packageDirectory.appendingPathComponent(".venv-thumbor")

    let process: ServeProcess
    let base: String

    init(directory: URL) throws {
        let executable = Self.venv.appendingPathComponent("bin/thumbor").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchmarkError(description: "no \(executable) (scripts/setup.sh --benchmarks installs thumbor)")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("thumbor.conf")
        try """
        LOADER = 'thumbor.loaders.http_loader'
        STORAGE = 'thumbor.storages.file_storage'
        FILE_STORAGE_ROOT_PATH = '\(directory.appendingPathComponent("storage").path)'
        RESULT_STORAGE = 'thumbor.result_storages.file_storage'
        RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = '\(directory.appendingPathComponent("results").path)'
        RESULT_STORAGE_STORES_UNSAFE = True
        ALLOW_UNSAFE_URL = True
        QUALITY = 80
        PROGRESSIVE_JPEG = False
        AUTO_WEBP = True
        AUTO_AVIF = True
        AVIF_SPEED = 8
        NON_BLOCKING_SOCKETS = True

        """.write(to: config, atomically: true, encoding: .utf8)
        let socket = try NginxServer.listeningSocket()
        defer { close(socket.fd) }
        base = "http://127.0.0.1:\(socket.port)"
        process = try ServeProcess(
            name: "thumbor", executable: executable,
            arguments: ["--fd", "3", "--conf", config.path, "--log-level", "error"],
            environment: ["PATH=\(Self.venv.appendingPathComponent("bin").path):/usr/bin:/bin"], sockets: [socket.fd],
            log: directory.appendingPathComponent("thumbor.log"))
        try process.waitUntilReady(base + "/healthcheck")
    }
}
