import Foundation
import NukeTestKit

/// A `CacheDiskTestWriter` child process (a tiny executable target built with the tests) writing into a cache
/// directory, so the tests can share a directory with another process or kill one mid-write.
final class ChildWriter: Sendable {
    private let process: Process
    private let output: Pipe
    private let exited = Gate()

    /// Starts the child: it stores `count` entries with keys "<prefix>-<i>" and payloads `writerPayload(index:)`,
    /// flushing and printing "flushed <n>" after every `flushEvery` entries, then prints "done". With `forever`
    /// it rewrites them with the next version (`writerPayload(index:version:)`) until killed.
    init(directory: URL, count: Int, prefix: String, flushEvery: Int, forever: Bool = false) throws {
        process = Process()
        output = Pipe()
        process.executableURL = try ChildWriter.executableURL()
        process.arguments = [directory.path, String(count), prefix, String(flushEvery)] + (forever ? ["forever"] : [])
        process.standardOutput = output
        let exited = self.exited
        process.terminationHandler = { _ in exited.open() }
        try process.run()
    }

    /// The helper sits next to the test bundle in the build directory.
    private static func executableURL() throws -> URL {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent(
            "CacheDiskTestWriter")
    }

    /// Reads the child's output until a line satisfies `predicate` (returned) or the output ends (`nil`).
    /// Blocks a Dispatch thread, not the caller's.
    func waitForLine(where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        let handle = output.fileHandleForReading
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            DispatchQueue.global().async {
                var buffer = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { return continuation.resume(returning: nil) }
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer = Data(buffer[(newline + 1)...])
                        if predicate(line) { return continuation.resume(returning: line) }
                    }
                }
            }
        }
    }

    /// Sends SIGKILL: the child dies wherever it is, without any cleanup.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    /// Waits for the child to exit; returns its exit status, or the signal that killed it.
    func waitForExit() async -> (status: Int32, wasKilledBySignal: Bool) {
        await exited.wait()
        return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
    }
}
