#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
public import Foundation

extension DataCache {
    /// Why a ``DataCache`` could not be created, or why a background write failed (see ``DataCache/lastError``).
    ///
    /// Every case names the path involved; file-system failures keep the system's `errno` and its message.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// `DataCache(name:)` got a name that is empty or is not a single path component (`/`, `.`, `..`).
        case invalidName(String)
        /// `DataCache(path:)` got a URL that is not a `file:` URL.
        case notAFileURL(URL)
        /// Neither `$XDG_CACHE_HOME` nor `$HOME` names a directory to put a named cache in.
        case cacheDirectoryUnknown
        /// Something that is not a directory exists where the cache directory (or its metadata directory) should be.
        case notADirectory(path: String)
        /// A file-system call failed: `operation` (e.g. `"mkdir"`), the path, and the `errno` it set.
        case fileSystem(operation: String, path: String, errno: Int32)
        /// The ``DataCache/FilenameGenerator`` named `key`'s file `filename`, which could leave the cache directory
        /// or is not a valid file name (see there); the key is not cached.
        case invalidFilename(key: String, filename: String)

        public var description: String {
            switch self {
            case .invalidName(let name):
                "DataCache: invalid cache name \"\(name)\": use a single non-empty path component"
            case .notAFileURL(let url):
                "DataCache: \(url) is not a file URL"
            case .cacheDirectoryUnknown:
                "DataCache: neither XDG_CACHE_HOME nor HOME is set, so there is no user cache directory"
            case .notADirectory(let path):
                "DataCache: \(path) exists but is not a directory"
            case .fileSystem(let operation, let path, let code):
                "DataCache: \(operation) \(path) failed: \(String(cString: strerror(code))) (errno \(code))"
            case .invalidFilename(let key, let filename):
                "DataCache: the filename generator named key \"\(key)\" \"\(filename)\", which is not a single file name "
                    + "in the cache directory (empty, over 255 bytes, or containing \"/\", NUL or a leading \".\"); "
                    + "the key is not cached"
            }
        }
    }
}
