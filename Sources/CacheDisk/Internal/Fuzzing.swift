public import Foundation

/// Helpers for the fuzz targets of `Fuzz/` (`@_spi(Fuzzing) import CacheDisk`), which write fuzzed entry files
/// and journals into a cache directory and read them back. Random bytes almost never carry a valid checksum, so
/// without these the fuzzer would only ever reach the first check; none is API.
@_spi(Fuzzing)
public enum CacheDiskFuzzing {
    /// The size of an entry file's header; the key starts after it.
    public static let entryHeaderSize = EntryFile.headerSize

    /// The path of the journal of the cache directory at `root`.
    public static func journalPath(root: URL) -> String {
        DirectoryLayout(root: root.standardizedFileURL.path).journal
    }

    /// Writes the checksum an entry file image needs (bytes 8–23) over whatever is there; images shorter than a
    /// header are left alone. Every other field stays as fuzzed.
    public static func sealEntryFile(_ bytes: inout [UInt8]) {
        guard bytes.count >= EntryFile.headerSize else { return }
        bytes.withUnsafeMutableBytes { raw in
            let checksum = Checksum.xxh3_128(UnsafeRawBufferPointer(rebasing: raw[24...]))
            raw.storeBytes(of: checksum.low.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: checksum.high.littleEndian, toByteOffset: 16, as: UInt64.self)
        }
    }

    /// Makes the records of a journal image (after its 16-byte header) well-formed: the magic in the header,
    /// `key`'s digest in every record whose padding byte 1 is odd (so records name an entry that exists), and
    /// every record's checksum. A partial last record is left as it is (a torn append).
    public static func sealJournal(_ bytes: inout [UInt8], key: String) {
        let headerSize = Journal.headerSize
        guard bytes.count >= headerSize, let digest = KeyDigest(key: key) else { return }
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: Journal.magic.littleEndian, toByteOffset: 0, as: UInt64.self)
            var position = headerSize
            while position + JournalRecord.byteCount <= raw.count {
                let record = UnsafeMutableRawBufferPointer(rebasing: raw[position..<position + JournalRecord.byteCount])
                if record[1] & 1 == 1 { digest.write(to: UnsafeMutableRawBufferPointer(rebasing: record[8..<40])) }
                let checksum = Checksum.xxh3_64(UnsafeRawBufferPointer(rebasing: record[0..<64]))
                record.storeBytes(of: checksum.littleEndian, toByteOffset: 64, as: UInt64.self)
                position += JournalRecord.byteCount
            }
        }
    }
}
