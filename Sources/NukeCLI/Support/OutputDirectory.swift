#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
import Foundation

/// The directory `nuke fetch -o DIR` writes into: resolved against the current directory, created with its
/// missing parents, and checked to be writable before any input is loaded, so a wrong `-o` fails at once with
/// one sentence instead of once per image.
enum OutputDirectory {
    /// Creates `path` where missing and checks that files can be written into it.
    ///
    /// - Throws: ``CommandError`` "cannot write to PATH: REASON", with the system's reason (not a directory,
    ///   permission denied, read-only file system, …).
    static func prepare(_ path: String) throws -> URL {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let url = URL(fileURLWithPath: path, isDirectory: true, relativeTo: base).standardizedFileURL
        var missing: [String] = []
        var existing = url.path
        while !FileSystemEntry.exists(existing) {
            missing.append(existing)
            let parent = (existing as NSString).deletingLastPathComponent
            guard parent != existing else { break }
            existing = parent
        }
        func failure(_ code: Int32) -> CommandError {
            CommandError("cannot write to \(url.path): \(FileSystemEntry.reason(code))")
        }
        guard FileSystemEntry.isDirectory(existing) else { throw failure(ENOTDIR) }
        guard access(existing, W_OK) == 0 else { throw failure(errno) }
        for directory in missing.reversed() {
            if mkdir(directory, 0o777) != 0, errno != EEXIST { throw failure(errno) }
        }
        guard FileSystemEntry.isDirectory(url.path) else { throw failure(ENOTDIR) }
        return url
    }
}

/// What `stat(2)` says about a path, and the system's words for an `errno`.
enum FileSystemEntry {
    /// `true` if something (a file, a directory, a dangling link excepted) is at `path`.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// `true` if `path` is a directory (or a link to one).
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The `strerror` text of `code`, starting in lower case to follow a colon ("not a directory").
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
