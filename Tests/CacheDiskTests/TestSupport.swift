import NukeCore
import Foundation
import Testing

@testable import CacheDisk

let blob = Data("123".utf8)
let otherBlob = Data("456".utf8)

/// A fresh directory under the system's temporary directory, removed with everything in it on `deinit`.
///
/// Make caches in it with ``makeCache(_:clock:)``: they are flushed before the directory is removed, so no
/// background write brings it back.
final class TemporaryDirectory: Sendable {
    let url: URL
    private let caches = LockedValueBox<[DataCache]>([])

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CacheDiskTests-\(UUID().uuidString)", isDirectory: true)
    }

    deinit {
        for cache in caches.withLock({ $0 }) { cache.flush() }
        try? FileManager.default.removeItem(at: url)
    }

    /// A cache in the subdirectory `name`, flushed before this directory is removed.
    func makeCache(_ name: String = "cache", clock: (@Sendable () -> Int64)? = nil) throws -> DataCache {
        let cache =
            if let clock { try DataCache(path: path(name), clock: clock) } else { try DataCache(path: path(name)) }
        caches.withLock { $0.append(cache) }
        return cache
    }

    /// A path inside this directory (not created).
    func path(_ name: String) -> URL {
        url.appendingPathComponent(name, isDirectory: true)
    }
}

/// A wall clock that tests move by hand, for expiry.
final class TestClock: Sendable {
    private let time = LockedValueBox<Int64>(1_700_000_000 * 1_000_000_000)

    var now: @Sendable () -> Int64 {
        { [time] in time.withLock { $0 } }
    }

    func advance(seconds: Double) {
        time.withLock { $0 += Int64(seconds * 1e9) }
    }
}

extension DataCache {
    /// The entry files in the cache directory, sorted by name.
    var entryFiles: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path.path)) ?? []
        return names.filter { KeyDigest(fileName: $0) != nil }.sorted().map { path.appendingPathComponent($0) }
    }

    /// The file that holds (or would hold) the entry for `key`.
    func entryURL(for key: String) -> URL {
        path.appendingPathComponent(KeyDigest(key: key)?.fileName ?? "")
    }

    /// Runs `body` with background flushes paused, so staged changes stay in memory until `flush`.
    func withPausedFlushes(_ body: () throws -> Void) rethrows {
        isBackgroundFlushPaused = true
        defer { isBackgroundFlushPaused = false }
        try body()
    }

    /// The payload stored in the entry file of `key`, read directly from disk without verification.
    func payloadOnDisk(for key: String) -> Data? {
        guard let file = try? Data(contentsOf: entryURL(for: key)) else { return nil }
        return Data(file.dropFirst(EntryFile.headerSize + key.utf8.count))
    }
}

/// Version `version` of the payload the `CacheDiskTestWriter` child process stores for entry `index` (same formula
/// as its `main.swift`).
func writerPayload(index: Int, version: Int = 0) -> Data {
    let count = 100 + (index &* 7919) % 20_000
    var data = Data(count: count)
    data.withUnsafeMutableBytes { (bytes: UnsafeMutableRawBufferPointer) in
        for offset in 0..<count {
            bytes[offset] = UInt8(truncatingIfNeeded: index &* 31 &+ offset &* 131 &+ (offset >> 8))
        }
        bytes.storeBytes(of: UInt64(version).littleEndian, toByteOffset: 0, as: UInt64.self)
    }
    return data
}

/// The version a `CacheDiskTestWriter` payload claims to be (its first 8 bytes).
func writerPayloadVersion(_ data: Data) -> Int? {
    guard data.count >= 8 else { return nil }
    return Int(exactly: data.prefix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) })
}
