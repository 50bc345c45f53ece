/// One change to the set of entries in a cache directory, as logged in the shared ``Journal``.
struct JournalRecord: Equatable {
    enum Kind: UInt8 {
        /// An entry file was (or is about to be) renamed into place.
        case add = 1
        /// An entry file was removed.
        case remove = 2
        /// An entry was read at `time`: it moves up in the least-recently-used order.
        case access = 3
        /// Every entry file was removed.
        case clear = 4
    }

    var kind: Kind
    var digest: KeyDigest
    /// The size of the entry's data in bytes, without the file's header and key (``Kind/add`` only).
    var size: Int64 = 0
    /// When the entry was written or read, nanoseconds since 1970.
    var time: Int64 = 0
    /// When the entry expires, nanoseconds since 1970; 0 for never (``Kind/add`` only).
    var expiry: Int64 = 0

    /// Encoded size: kind (1) + padding (7) + digest (32) + size, time, expiry (8 each) + XXH3-64 checksum (8).
    static let byteCount = 72

    func encode(into buffer: UnsafeMutableRawBufferPointer) {
        buffer.storeBytes(of: UInt64(kind.rawValue).littleEndian, toByteOffset: 0, as: UInt64.self)
        digest.write(to: UnsafeMutableRawBufferPointer(rebasing: buffer[8..<40]))
        buffer.storeBytes(of: size.littleEndian, toByteOffset: 40, as: Int64.self)
        buffer.storeBytes(of: time.littleEndian, toByteOffset: 48, as: Int64.self)
        buffer.storeBytes(of: expiry.littleEndian, toByteOffset: 56, as: Int64.self)
        let checksum = Checksum.xxh3_64(UnsafeRawBufferPointer(rebasing: buffer[0..<64]))
        buffer.storeBytes(of: checksum.littleEndian, toByteOffset: 64, as: UInt64.self)
    }

    /// The largest data size a record may carry (1 TiB, far beyond any entry a cache holds in memory to store).
    /// A size outside `0...maximumSize` marks the record damaged: the index adds sizes up, and a read trusts the
    /// size it knows for its first `pread`, so a damaged journal must not bring a size that overflows or that is
    /// allocated.
    static let maximumSize: Int64 = 1 << 40

    /// Decodes a record from the first ``byteCount`` bytes; `nil` if the checksum or kind is wrong (a torn write)
    /// or the size is out of range (a damaged or foreign file with a valid checksum).
    init?(decoding bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= JournalRecord.byteCount else { return nil }
        let checksum = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 64, as: UInt64.self))
        guard checksum == Checksum.xxh3_64(UnsafeRawBufferPointer(rebasing: bytes[0..<64])),
            let kind = Kind(rawValue: bytes[0])
        else { return nil }
        let size = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 40, as: Int64.self))
        guard (0...JournalRecord.maximumSize).contains(size) else { return nil }
        self.kind = kind
        digest = KeyDigest(bytes: UnsafeRawBufferPointer(rebasing: bytes[8..<40]))
        self.size = size
        time = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 48, as: Int64.self))
        expiry = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 56, as: Int64.self))
    }

    init(kind: Kind, digest: KeyDigest, size: Int64 = 0, time: Int64 = 0, expiry: Int64 = 0) {
        self.kind = kind
        self.digest = digest
        self.size = size
        self.time = time
        self.expiry = expiry
    }
}
