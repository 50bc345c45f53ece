import Foundation
import Testing

@_spi(Fuzzing) @testable import CacheDisk

/// Inputs the `cache-journal` fuzz target (Fuzz/) found, replayed as the target feeds them: the first byte holds
/// its flags (bit 0: seal the records' checksums), the rest is the journal, written over the journal of a
/// directory that holds one intact entry.
@Suite struct DataCacheFuzzRegressionTests {
    let directory = TemporaryDirectory()
    let key = "https://example.com/image.jpg"
    let stored = Data("stored payload".utf8)

    /// The fuzz input `Tests/Fixtures/fuzz/<name>`.
    static func fixture(_ name: String) throws -> Data {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return try Data(contentsOf: tests.appendingPathComponent("Fixtures/fuzz/\(name)"))
    }

    @Test func journalRecordClaimingATerabyteIsNotAllocated() throws {
        // Given the key's entry, and a journal whose one record (checksum valid) says its data is 2^40 bytes: the
        // first read allocated that much for its pread and crashed
        let writer = try directory.makeCache()
        writer.storeData(stored, for: key)
        writer.flush()
        let input = try Self.fixture("cache-journal-huge-size")
        var journal = [UInt8](input.dropFirst())
        #expect(input.first == 1)
        CacheDiskFuzzing.sealJournal(&journal, key: key)
        try Data(journal).write(to: URL(fileURLWithPath: CacheDiskFuzzing.journalPath(root: writer.path)))

        // When
        let reopened = try directory.makeCache()

        // Then the file is measured before it is read, and reads as what was stored
        #expect(reopened.totalSize == Int(JournalRecord.maximumSize))
        #expect(reopened.cachedData(for: key) == stored)
    }

    @Test(arguments: [Int64(-1), JournalRecord.maximumSize + 1, Int64.max])
    func recordWithASizeOutOfRangeDoesNotDecode(_ size: Int64) throws {
        // Given a well-formed record (valid checksum) with an impossible size
        let digest = try #require(KeyDigest(key: key))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: JournalRecord.byteCount, alignment: 8)
        defer { buffer.deallocate() }
        JournalRecord(kind: .add, digest: digest, size: size).encode(into: buffer)

        // When / Then
        #expect(JournalRecord(decoding: UnsafeRawBufferPointer(buffer)) == nil)
        JournalRecord(kind: .add, digest: digest, size: JournalRecord.maximumSize).encode(into: buffer)
        #expect(JournalRecord(decoding: UnsafeRawBufferPointer(buffer))?.size == JournalRecord.maximumSize)
    }

    @Test func expectedSizeAboveTheTrustedLimitIsMeasuredFirst() throws {
        // Given an intact entry file
        let cache = try directory.makeCache()
        cache.storeData(stored, for: key)
        cache.flush()
        let path = cache.path.appendingPathComponent(try #require(DataCache.filename(for: key))).path

        // When the size the index knows is absurd
        let result = EntryFile.read(at: path, key: key, expectedSize: Int.max / 2)

        // Then the file is measured and read at its real size
        guard case .hit(let data, _, _) = result else {
            Issue.record("expected a hit, got \(result)")
            return
        }
        #expect(data == stored)
    }
}
