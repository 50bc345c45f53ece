import Foundation

/// Runs the `nuke` executable that `swift build`/`swift test` put next to the test binary
/// (`.build/<configuration>/nuke`), and captures its exit status and output.
struct NukeProcess {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The built executable: the test target depends on the `NukeCLI` target, so SwiftPM builds `nuke` into the
    /// same directory as the test binary.
    static func executableURL() throws -> URL {
        let testBinary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let url = URL(fileURLWithPath: testBinary).deletingLastPathComponent().appendingPathComponent("nuke")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw NukeProcessError(description: "no nuke executable at \(url.path); run `swift build --product nuke`")
        }
        return url
    }

    /// The repository's root directory (this file is `Tests/NukeCLITests/NukeProcess.swift` in it).
    static func packageRoot(file: String = #filePath) -> URL {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `nuke arguments…` in `directory` and waits for it to exit. Output is read on other threads while the
    /// process runs, so a full pipe never blocks it.
    static func run(_ arguments: [String], in directory: URL? = nil) async throws -> Result {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        return try await withCheckedThrowingContinuation { continuation in
            let group = DispatchGroup()
            let output = OutputBox()
            for (pipe, isError) in [(stdout, false), (stderr, true)] {
                group.enter()
                DispatchQueue.global().async {
                    let data = pipe.fileHandleForReading.readDataToEndOfFile()
                    output.set(data, isError: isError)
                    group.leave()
                }
            }
            group.enter()
            process.terminationHandler = { _ in group.leave() }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            group.notify(queue: .global()) {
                let (out, err) = output.values
                continuation.resume(
                    returning: Result(
                        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                        stderr: String(decoding: err, as: UTF8.self)))
            }
        }
    }
}

struct NukeProcessError: Error, CustomStringConvertible {
    let description: String
}

/// The captured output of both pipes.
private final class OutputBox: @unchecked Sendable {
    // @unchecked: both properties are read and written only while `lock` is held.
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    func set(_ data: Data, isError: Bool) {
        lock.withLock {
            if isError { err = data } else { out = data }
        }
    }

    var values: (Data, Data) { lock.withLock { (out, err) } }
}
