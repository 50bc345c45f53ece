#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The file format of one cache entry, and reading and writing it.
///
/// Layout (integers little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `NUKEDC\0` + format version `1` |
/// | 8 | 16 | XXH3-128 of every byte from offset 24 to the end of the file |
/// | 24 | 4 | key length in bytes |
/// | 28 | 4 | flags (0) |
/// | 32 | 8 | payload length in bytes |
/// | 40 | 8 | expiry, nanoseconds since 1970 (0: never) |
/// | 48 | 8 | time written, nanoseconds since 1970 |
/// | 56 | 8 | reserved (0) |
/// | 64 | key length | the key, UTF-8 |
/// | 64 + key length | payload length | the payload |
///
/// A file whose size, magic or checksum does not match is damaged, and one that holds another key is not this
/// key's entry: neither is ever returned.
enum EntryFile {
    static let headerSize = 64
    private static let magic: UInt64 = 0x0100_4344_454B_554E  // "NUKEDC", 0, 1 read as little-endian

    /// The fields of a header that was read and checked against the file size.
    struct Header: Equatable {
        var keyLength: Int
        var payloadLength: Int
        var expiry: Int64
        var written: Int64
        var fileSize: Int { EntryFile.headerSize + keyLength + payloadLength }
    }

    enum ReadResult {
        /// The entry is intact and belongs to the key. The file's identity is known if it has an expiry.
        case hit(Data, expiry: Int64, FileIdentity?)
        /// No file at the path.
        case missing
        /// The file is intact but holds another key's entry: with a custom filename generator, two keys that share
        /// a name; with the default names, a file put there by something else.
        case otherKey(FileIdentity)
        /// The file is torn or corrupted.
        case damaged(FileIdentity)
        /// The file could not be read (`EACCES`, `EIO`, …).
        case failed(DataCache.Error)
    }

    /// The size of the file that stores `payloadCount` bytes under a key of `keyCount` UTF-8 bytes.
    static func fileSize(keyCount: Int, payloadCount: Int) -> Int {
        headerSize + keyCount + payloadCount
    }

    /// Writes a new file at `path` (which must not exist) holding `payload` for `key`; returns its size.
    static func write(
        to path: String, key: String, payload: Data, expiry: Int64, written: Int64
    ) throws(DataCache.Error) -> Int {
        var key = key
        let keyCount = key.utf8.count
        let size = fileSize(keyCount: keyCount, payloadCount: payload.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }

        buffer.storeBytes(of: magic.littleEndian, toByteOffset: 0, as: UInt64.self)
        buffer.storeBytes(of: UInt32(keyCount).littleEndian, toByteOffset: 24, as: UInt32.self)
        buffer.storeBytes(of: UInt32(0), toByteOffset: 28, as: UInt32.self)
        buffer.storeBytes(of: UInt64(payload.count).littleEndian, toByteOffset: 32, as: UInt64.self)
        buffer.storeBytes(of: expiry.littleEndian, toByteOffset: 40, as: Int64.self)
        buffer.storeBytes(of: written.littleEndian, toByteOffset: 48, as: Int64.self)
        buffer.storeBytes(of: UInt64(0), toByteOffset: 56, as: UInt64.self)
        key.withUTF8 { utf8 in
            UnsafeMutableRawBufferPointer(rebasing: buffer[headerSize..<headerSize + keyCount])
                .copyMemory(from: UnsafeRawBufferPointer(utf8))
        }
        _ = payload.copyBytes(
            to: UnsafeMutableRawBufferPointer(rebasing: buffer[(headerSize + keyCount)...])
                .bindMemory(to: UInt8.self))
        let checksum = Checksum.xxh3_128(UnsafeRawBufferPointer(rebasing: buffer[24...]))
        buffer.storeBytes(of: checksum.low.littleEndian, toByteOffset: 8, as: UInt64.self)
        buffer.storeBytes(of: checksum.high.littleEndian, toByteOffset: 16, as: UInt64.self)

        let fd = try FileSystem.openFile(path, O_WRONLY | O_CREAT | O_EXCL)
        do {
            try FileSystem.writeAll(fd, UnsafeRawBufferPointer(buffer), path: path)
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
        guard close(fd) == 0 else {
            let failure = FileSystem.error("close", path)
            unlink(path)
            throw failure
        }
        return size
    }

    /// The largest expected size ``read(at:key:expectedSize:)`` reads without measuring the file (16 MiB): the
    /// `fstat` it saves matters for small entries only.
    static let trustedSizeLimit = 16 << 20

    /// Reads and verifies the entry at `path` for `key`.
    ///
    /// `expectedSize` (what the index knows) saves an `fstat` when it is right; when it is wrong (another
    /// instance replaced the file), the file is measured and read again. It comes from the journal, which another
    /// process (or damage) may have written, so it is only trusted up to ``trustedSizeLimit``: a larger file is
    /// measured first, and no allocation is ever sized by the journal alone.
    static func read(at path: String, key: String, expectedSize: Int?) -> ReadResult {
        read(at: path, key: key, expectedSize: expectedSize) { () throws(DataCache.Error) in
            try FileSystem.openFile(path, O_RDONLY)
        }
    }

    /// Reads and verifies the entry called `name` in `directory` for `key`; see ``read(at:key:expectedSize:)``.
    static func read(in directory: DirectoryHandle, name: String, key: String, expectedSize: Int?) -> ReadResult {
        read(at: directory.path + "/" + name, key: key, expectedSize: expectedSize) { () throws(DataCache.Error) in
            try directory.openForReading(name)
        }
    }

    private static func read(
        at path: @autoclosure () -> String, key: String, expectedSize: Int?,
        open: () throws(DataCache.Error) -> Int32
    ) -> ReadResult {
        let fd: Int32
        do {
            fd = try open()
        } catch {
            if case .fileSystem(_, _, let code) = error, code == ENOENT || code == ENOTDIR { return .missing }
            return .failed(error)
        }
        defer { close(fd) }
        if let expectedSize, expectedSize >= headerSize, expectedSize <= trustedSizeLimit,
            case .some(.hit(let data, let expiry, let identity)) = read(
                fd, path: path(), key: key, size: expectedSize, isSizeKnown: false)
        {
            return .hit(data, expiry: expiry, identity)
        }
        let status: stat
        do {
            status = try FileSystem.status(fd: fd, path: path())
        } catch {
            return .failed(error)
        }
        let identity = FileIdentity(status)
        let size = Int(status.st_size)
        guard size >= headerSize else { return .damaged(identity) }
        return read(fd, path: path(), key: key, size: size, isSizeKnown: true) ?? .damaged(identity)
    }

    /// Reads a file of `size` bytes and verifies it; `nil` if it is another size or damaged.
    ///
    /// Unless `isSizeKnown`, one `pread` asks for one more byte than `size`, to notice a longer file: a hit then
    /// costs one read call instead of a read to the end and another that returns 0. A shorter read (a shorter
    /// file, or in theory an interrupted read) is `nil`, and the caller measures the file and reads it again.
    private static func read(
        _ fd: Int32, path: @autoclosure () -> String, key: String, size: Int, isSizeKnown: Bool
    ) -> ReadResult? {
        let capacity = isSizeKnown ? size : size + 1
        let base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        let buffer = UnsafeMutableRawBufferPointer(start: base, count: capacity)
        let count: Int
        do {
            count =
                try isSizeKnown
                ? FileSystem.readFully(fd, into: buffer, at: 0, path: path())
                : FileSystem.readOnce(fd, into: buffer, at: 0, path: path())
        } catch {
            base.deallocate()
            return .failed(error)
        }
        let verification = count == size ? verify(UnsafeRawBufferPointer(start: base, count: size), key: key) : nil
        guard case .intact(let header) = verification else {
            base.deallocate()
            guard verification == .otherKey, let status = try? FileSystem.status(fd: fd, path: path()) else {
                return nil
            }
            return .otherKey(FileIdentity(status))
        }
        // The identity is only needed to remove the file once it expires.
        let identity =
            header.expiry == 0 ? nil : (try? FileSystem.status(fd: fd, path: path())).map(FileIdentity.init)
        guard header.payloadLength > 0 else {
            base.deallocate()
            return .hit(Data(), expiry: header.expiry, identity)
        }
        let offset = headerSize + header.keyLength
        let payload = Data(
            bytesNoCopy: base + offset, count: header.payloadLength,
            deallocator: .custom { pointer, _ in (pointer - offset).deallocate() })
        return .hit(payload, expiry: header.expiry, identity)
    }

    /// Reads only the header of the file at `path` and checks it against the file's size; `nil` if the file
    /// is missing or the header is not an entry's.
    static func readHeader(at path: String) -> (Header, stat)? {
        guard let fd = try? FileSystem.openFile(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        guard let status = try? FileSystem.status(fd: fd, path: path) else { return nil }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: headerSize, alignment: 16)
        defer { buffer.deallocate() }
        guard (try? FileSystem.readFully(fd, into: buffer, at: 0, path: path)) == headerSize,
            let header = parseHeader(UnsafeRawBufferPointer(buffer)),
            header.fileSize == Int(status.st_size)
        else { return nil }
        return (header, status)
    }

    /// Reads the header and key of the file at `path`; the header if the file is `key`'s entry by its header, key
    /// and size (the checksum of the data is not verified). `nil` if it is missing, someone else's or damaged.
    static func readHeader(at path: String, key: String) -> Header? {
        guard let fd = try? FileSystem.openFile(path, O_RDONLY) else { return nil }
        defer { close(fd) }
        guard let status = try? FileSystem.status(fd: fd, path: path) else { return nil }
        var key = key
        return key.withUTF8 { utf8 -> Header? in
            let count = headerSize + utf8.count
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
            defer { buffer.deallocate() }
            guard (try? FileSystem.readFully(fd, into: buffer, at: 0, path: path)) == count,
                let header = parseHeader(UnsafeRawBufferPointer(buffer)),
                header.fileSize == Int(status.st_size), header.keyLength == utf8.count,
                utf8.isEmpty || memcmp(utf8.baseAddress!, buffer.baseAddress! + headerSize, utf8.count) == 0
            else { return nil }
            return header
        }
    }

    private enum Verification: Equatable {
        case intact(Header)
        case otherKey
        case damaged
    }

    /// Whether a complete file image is intact (magic, lengths and checksum) and holds `key`.
    private static func verify(_ bytes: UnsafeRawBufferPointer, key: String) -> Verification {
        guard let header = parseHeader(bytes), header.fileSize == bytes.count else { return .damaged }
        let checksum = Checksum.xxh3_128(UnsafeRawBufferPointer(rebasing: bytes[24...]))
        guard UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) == checksum.low,
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) == checksum.high
        else { return .damaged }
        var key = key
        let keyMatches = key.withUTF8 { utf8 in
            utf8.count == header.keyLength
                && (utf8.isEmpty
                    || memcmp(utf8.baseAddress!, bytes.baseAddress! + headerSize, header.keyLength) == 0)
        }
        return keyMatches ? .intact(header) : .otherKey
    }

    private static func parseHeader(_ bytes: UnsafeRawBufferPointer) -> Header? {
        guard bytes.count >= headerSize,
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)) == magic
        else { return nil }
        let keyLength = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self)))
        let payloadLength = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
        guard payloadLength <= UInt64(Int.max / 2) else { return nil }
        return Header(
            keyLength: keyLength,
            payloadLength: Int(payloadLength),
            expiry: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 40, as: Int64.self)),
            written: Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: 48, as: Int64.self)))
    }
}
