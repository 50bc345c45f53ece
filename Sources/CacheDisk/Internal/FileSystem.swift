#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The device and inode of a file: tells whether a path still names the file that was opened.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// Thin, `errno`-preserving wrappers over the POSIX calls the cache makes. Every failure becomes a
/// ``DataCache/Error/fileSystem(operation:path:errno:)``; `EINTR` is retried.
enum FileSystem {
    static func error(_ operation: String, _ path: String, _ code: Int32 = errno) -> DataCache.Error {
        .fileSystem(operation: operation, path: path, errno: code)
    }

    static func openFile(_ path: String, _ flags: Int32, mode: mode_t = 0o644) throws(DataCache.Error) -> Int32 {
        while true {
            let fd = open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw error("open", path) }
        }
    }

    /// `stat` of `path`, or `nil` if nothing is there (`ENOENT`, `ENOTDIR`).
    static func status(_ path: String) throws(DataCache.Error) -> stat? {
        var status = stat()
        if stat(path, &status) == 0 { return status }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw error("stat", path)
    }

    static func status(fd: Int32, path: @autoclosure () -> String) throws(DataCache.Error) -> stat {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw error("fstat", path()) }
        return status
    }

    static func isDirectory(_ status: stat) -> Bool {
        (status.st_mode & S_IFMT) == S_IFDIR
    }

    static func isRegularFile(_ status: stat) -> Bool {
        (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The bytes the file occupies on disk: its allocated blocks (`st_blocks` counts 512-byte units).
    static func allocatedSize(_ status: stat) -> Int {
        Int(status.st_blocks) * 512
    }

    /// Creates a file at `path` (which must not exist) holding exactly `data`; removes it again if writing fails.
    static func writeNewFile(_ path: String, _ data: Data) throws(DataCache.Error) {
        let fd = try openFile(path, O_WRONLY | O_CREAT | O_EXCL)
        let failure = data.withUnsafeBytes { bytes -> DataCache.Error? in
            do throws(DataCache.Error) {
                if bytes.count > 0 { try writeAll(fd, bytes, path: path) }
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            close(fd)
            unlink(path)
            throw failure
        }
        guard close(fd) == 0 else {
            let failure = error("close", path)
            unlink(path)
            throw failure
        }
    }

    /// Creates the directory unless one is already there.
    static func makeDirectory(_ path: String) throws(DataCache.Error) {
        if mkdir(path, 0o755) == 0 { return }
        let code = errno
        guard code == EEXIST else { throw error("mkdir", path, code) }
        guard let status = try status(path), isDirectory(status) else { throw .notADirectory(path: path) }
    }

    /// Removes the file; `true` if it was there.
    @discardableResult
    static func removeFile(_ path: String) throws(DataCache.Error) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw error("unlink", path)
    }

    static func renameFile(_ source: String, _ destination: String) throws(DataCache.Error) {
        guard rename(source, destination) == 0 else { throw error("rename", destination) }
    }

    /// Writes all of `bytes` at the file's current offset.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(DataCache.Error) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw error("write", path)
            }
            offset += written
        }
    }

    /// Reads up to `buffer.count` bytes at `offset`; returns how many were read (fewer only at the end of the file).
    static func readFully(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: @autoclosure () -> String
    ) throws(DataCache.Error) -> Int {
        var total = 0
        while total < buffer.count {
            let count = pread(fd, buffer.baseAddress! + total, buffer.count - total, off_t(offset + total))
            if count < 0 {
                if errno == EINTR { continue }
                throw error("read", path())
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// One `pread` of up to `buffer.count` bytes at `offset` (retried on `EINTR`); returns how many were read.
    static func readOnce(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: @autoclosure () -> String
    ) throws(DataCache.Error) -> Int {
        while true {
            let count = pread(fd, buffer.baseAddress!, buffer.count, off_t(offset))
            if count >= 0 { return count }
            if errno != EINTR { throw error("read", path()) }
        }
    }

    /// The names in a directory, without `.` and `..`; `nil` if the directory is gone.
    static func contentsOfDirectory(_ path: String) throws(DataCache.Error) -> [String]? {
        guard let directory = opendir(path) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw error("opendir", path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // Read the name in place, up to its NUL: glibc's entries are only `d_reclen` bytes long, so copying the
            // whole 256-byte `d_name` array (as `withUnsafeBytes(of:)` would) reads past the end of the buffer.
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) { field in
                field.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: field.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Nanoseconds since 1970 from the wall clock.
    static func wallClockNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Modification time of `status` in nanoseconds since 1970.
    static func modificationNanoseconds(_ status: stat) -> Int64 {
        Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}
