import Foundation

/// Recognises a disk cache directory without opening it, because opening a `DataCache` creates its files.
///
/// `DataCache` keeps its lock, journal and temporary files in `DIR/.datacache/` (CacheDisk's `DirectoryLayout`)
/// and creates that directory when it first opens `DIR`, so a directory holding `.datacache/` is a cache and
/// any other directory is not.
enum CacheDirectory {
    /// The directory every `DataCache` creates inside its root.
    static let marker = ".datacache"

    /// The URL of the existing cache at `path` (relative paths start in the current directory).
    ///
    /// - Throws: ``CommandError`` "PATH is not a disk cache: REASON" when `path` doesn't exist, isn't a directory
    ///   or holds no `.datacache/`. Creates nothing.
    static func existing(_ path: String) throws -> URL {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let url = URL(fileURLWithPath: path, isDirectory: true, relativeTo: base).standardizedFileURL
        func failure(_ reason: String) -> CommandError {
            CommandError("\(url.path) is not a disk cache: \(reason)")
        }
        guard FileSystemEntry.exists(url.path) else { throw failure("no such directory") }
        guard FileSystemEntry.isDirectory(url.path) else { throw failure("not a directory") }
        guard FileSystemEntry.isDirectory(url.appendingPathComponent(marker).path) else {
            throw failure("it has no \(marker)/ directory (`nuke fetch --cache-dir DIR` makes one)")
        }
        return url
    }
}
