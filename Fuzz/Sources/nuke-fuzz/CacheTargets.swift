@_spi(Fuzzing) import CacheDisk
import Foundation

/// `DataCache` reading files it didn't write: a damaged or foreign entry file, and a damaged journal. Whatever
/// the bytes, a read is the data that was stored for the key or a miss, never other data and never a crash; and
/// the cache still stores and returns new data afterwards.
///
/// The first input byte holds flags: bit 0 gives the fuzzed file a valid checksum (random bytes almost never have
/// one), so the fuzzer gets past it to the fields behind it.
enum CacheTargets {
    nonisolated(unsafe) private static var base = URL(fileURLWithPath: NSTemporaryDirectory())
    private static let key = "https://example.com/image.jpg"

    static func setUp() {
        base = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("nuke-fuzz-cache-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: base)
        atexit { try? FileManager.default.removeItem(at: CacheTargets.base) }
    }

    /// The input (after the flags) is an entry file, placed where the key's entry lives.
    static func entry(_ data: Data) {
        var input = FuzzInput(data)
        let flags = input.byte()
        var file = [UInt8](input.data)
        if flags & 1 == 1 { CacheDiskFuzzing.sealEntryFile(&file) }
        let root = freshDirectory()
        guard let name = DataCache.filename(for: key) else { preconditionFailure("no file name for the key") }
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent(name).path, contents: Data(file))
        guard let cache = try? DataCache(path: root) else { return }
        cache.isSweepEnabled = false
        if let read = cache.cachedData(for: key) {
            // A hit must be exactly the payload of a file that is this key's entry.
            let keyBytes = Array(key.utf8)
            let header = CacheDiskFuzzing.entryHeaderSize
            precondition(file.count == header + keyBytes.count + read.count, "a hit of the wrong size")
            precondition(Array(file[header..<header + keyBytes.count]) == keyBytes, "a hit of another key")
            precondition(Array(file[(header + keyBytes.count)...]) == Array(read), "a hit with other data")
            if let url = cache.url(for: key) {
                precondition(FileManager.default.contents(atPath: url.path) == read, "url(for:) has other data")
            }
        }
        checkStillWorks(cache)
    }

    /// The input (after the flags) is the journal; the directory holds one intact entry for the key, written
    /// first. Bit 0 of the flags seals the journal's records (see ``CacheDiskFuzzing/sealJournal(_:key:)``).
    static func journal(_ data: Data) {
        var input = FuzzInput(data)
        let flags = input.byte()
        var journal = [UInt8](input.data)
        if flags & 1 == 1 { CacheDiskFuzzing.sealJournal(&journal, key: key) }
        let root = freshDirectory()
        let stored = Data("stored payload".utf8)
        do {
            guard let writer = try? DataCache(path: root) else { return }
            writer.isSweepEnabled = false
            writer.storeData(stored, for: key)
            writer.flush()
        }
        _ = FileManager.default.createFile(
            atPath: CacheDiskFuzzing.journalPath(root: root), contents: Data(journal))
        guard let cache = try? DataCache(path: root) else { return }
        cache.isSweepEnabled = false
        if let read = cache.cachedData(for: key) {
            precondition(read == stored, "a journal made the cache return other data")
        }
        precondition(cache.totalSize >= 0 && cache.totalCount >= 0, "negative totals")
        checkStillWorks(cache)
    }

    /// After whatever was on disk, the cache stores new data and reads it back, or misses: a damaged journal may
    /// claim sizes that make the trim after a flush evict the new entry (a miss is allowed, other data is not).
    private static func checkStillWorks(_ cache: DataCache) {
        let fresh = Data("fresh payload".utf8)
        cache.storeData(fresh, for: key)
        cache.flush()
        let read = cache.cachedData(for: key)
        precondition(read == nil || read == fresh, "the cache returned other data after reading a damaged file")
        cache.removeData(for: key)
        cache.flush()
        precondition(cache.cachedData(for: key) == nil, "a removed entry is still read")
    }

    /// An empty directory for this input's cache.
    private static func freshDirectory() -> URL {
        let root = base.appendingPathComponent("cache", isDirectory: true)
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }
}
