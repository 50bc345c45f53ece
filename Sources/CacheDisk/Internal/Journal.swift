#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The append-only log of changes to a cache directory, shared by every `DataCache` (in any process) that
/// opens the directory. Replaying it rebuilds the index (sizes, expiry, access order) without touching the
/// entry files.
///
/// Every method must be called with the directory lock held (``DirectoryLock``), from one thread at a time.
/// Appends are one `write(2)` each; a crash can tear only the last record, which a checksum detects and
/// ``readNewRecords()`` truncates away. Compaction writes a new file and renames it over the old one; other
/// instances notice the new inode and replay it from the start.
final class Journal {
    /// What ``readNewRecords()`` found.
    enum Update {
        /// Records appended since the last read (by other instances); `isTorn` if a damaged tail was cut off.
        case appended([JournalRecord], isTorn: Bool)
        /// The file was replaced (compacted or recreated): these records are the whole log.
        case replaced([JournalRecord], isTorn: Bool)
        /// There is no usable journal file.
        case missing
    }

    let path: String
    private var fd: Int32 = -1
    private var identity: FileIdentity?
    private var offset = 0
    /// Records in the file, for deciding when to compact.
    private(set) var recordCount = 0

    static let headerSize = 16
    /// "NUKEDCI2" read as little-endian. Version 2 records data sizes where version 1 recorded file sizes; a
    /// version 1 journal reads as missing, so the index is rebuilt from the entry files rather than mixing the two.
    static let magic: UInt64 = 0x3249_4344_454B_554E

    init(path: String) {
        self.path = path
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Brings this reader up to date with the file on disk.
    func readNewRecords() throws(DataCache.Error) -> Update {
        guard let status = try FileSystem.status(path) else {
            closeFile()
            return .missing
        }
        if FileIdentity(status) != identity || fd < 0 {
            closeFile()
            let fd = try FileSystem.openFile(path, O_RDWR | O_APPEND)
            let opened = try FileSystem.status(fd: fd, path: path)
            self.fd = fd
            identity = FileIdentity(opened)
            guard try hasValidHeader() else {
                closeFile()
                return .missing
            }
            offset = Journal.headerSize
            recordCount = 0
            let (records, isTorn) = try readRecords()
            return .replaced(records, isTorn: isTorn)
        }
        if Int(try FileSystem.status(fd: fd, path: path).st_size) < offset {
            // Shorter than what was read already: not the log this reader knows; replay it from the start.
            closeFile()
            return try readNewRecords()
        }
        let (records, isTorn) = try readRecords()
        return .appended(records, isTorn: isTorn)
    }

    /// Appends `records` in one write.
    func append(_ records: [JournalRecord]) throws(DataCache.Error) {
        guard !records.isEmpty else { return }
        guard fd >= 0 else { throw .fileSystem(operation: "write", path: path, errno: EBADF) }
        let buffer = Journal.encode(records, header: false)
        defer { buffer.deallocate() }
        do {
            try FileSystem.writeAll(fd, UnsafeRawBufferPointer(buffer), path: path)
        } catch {
            // A partial append is cut off so the next record starts on a record boundary.
            _ = ftruncate(fd, off_t(offset))
            throw error
        }
        offset += buffer.count
        recordCount += records.count
    }

    /// Replaces the file with one holding exactly `records` (write to a temporary file, then rename).
    func rewrite(_ records: [JournalRecord], temporaryPath: String) throws(DataCache.Error) {
        let buffer = Journal.encode(records, header: true)
        defer { buffer.deallocate() }
        let fd = try FileSystem.openFile(temporaryPath, O_RDWR | O_CREAT | O_TRUNC | O_APPEND)
        do {
            try FileSystem.writeAll(fd, UnsafeRawBufferPointer(buffer), path: temporaryPath)
            try FileSystem.renameFile(temporaryPath, path)
        } catch {
            close(fd)
            unlink(temporaryPath)
            throw error
        }
        closeFile()
        self.fd = fd
        identity = FileIdentity(try FileSystem.status(fd: fd, path: path))
        offset = buffer.count
        recordCount = records.count
    }

    private func closeFile() {
        if fd >= 0 { close(fd) }
        fd = -1
        identity = nil
        offset = 0
        recordCount = 0
    }

    private func hasValidHeader() throws(DataCache.Error) -> Bool {
        var header = (UInt64(0), UInt64(0))
        let count = try withUnsafeMutableBytes(of: &header) { (bytes) throws(DataCache.Error) -> Int in
            try FileSystem.readFully(fd, into: bytes, at: 0, path: path)
        }
        return count == Journal.headerSize && UInt64(littleEndian: header.0) == Journal.magic
    }

    /// Reads whole records from `offset` to the end of the file; cuts off a damaged tail.
    private func readRecords() throws(DataCache.Error) -> ([JournalRecord], isTorn: Bool) {
        let size = Int(try FileSystem.status(fd: fd, path: path).st_size)
        guard size > offset else { return ([], false) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size - offset, alignment: 16)
        defer { buffer.deallocate() }
        let count = try FileSystem.readFully(fd, into: buffer, at: offset, path: path)
        var records: [JournalRecord] = []
        records.reserveCapacity(count / JournalRecord.byteCount)
        var position = 0
        while position + JournalRecord.byteCount <= count,
            let record = JournalRecord(
                decoding: UnsafeRawBufferPointer(rebasing: buffer[position..<position + JournalRecord.byteCount]))
        {
            records.append(record)
            position += JournalRecord.byteCount
        }
        offset += position
        recordCount += records.count
        let isTorn = position < count
        if isTorn {
            guard ftruncate(fd, off_t(offset)) == 0 else { throw FileSystem.error("ftruncate", path) }
        }
        return (records, isTorn)
    }

    private static func encode(_ records: [JournalRecord], header: Bool) -> UnsafeMutableRawBufferPointer {
        let start = header ? headerSize : 0
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: start + records.count * JournalRecord.byteCount, alignment: 16)
        if header {
            buffer.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: UInt64(0), toByteOffset: 8, as: UInt64.self)
        }
        for (index, record) in records.enumerated() {
            let position = start + index * JournalRecord.byteCount
            record.encode(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[position..<position + JournalRecord.byteCount]))
        }
        return buffer
    }
}
