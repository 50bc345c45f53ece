/// The name of an entry's file in the cache directory, checked to stay inside it, and the digest that stands for
/// the entry in the index and the journal.
///
/// The default names are the 64 hexadecimal digits of the SHA-256 of the key, and their digest is those bytes,
/// so directories written before custom names existed read the same. Any other name's digest is the SHA-256 of
/// the name (domain-separated from key digests), which the cache recomputes from a directory listing when it
/// needs a file for a digest it only knows from the journal.
struct EntryName: Hashable, Sendable {
    /// The longest name most Linux file systems accept (`NAME_MAX`), in UTF-8 bytes.
    static let maximumByteCount = 255

    let fileName: String
    let digest: KeyDigest
    /// `true` for a default (hexadecimal) name, which maps to its digest without a directory listing.
    let isDefault: Bool

    /// `nil` unless `fileName` is one path component the cache may own: not empty, at most 255 UTF-8 bytes, no
    /// `/` or NUL, and not starting with `.` (so not `.`, `..`, the metadata directory or a hidden file).
    ///
    /// A read of the cache computes one of these per call: the checks are one pass over the bytes, and a default
    /// name is parsed without allocating.
    init?(fileName: String) {
        let utf8 = fileName.utf8
        let isValid =
            utf8.withContiguousStorageIfAvailable(EntryName.isValidComponent)
            ?? Array(utf8).withUnsafeBufferPointer(EntryName.isValidComponent)
        guard isValid else { return nil }
        if let digest = KeyDigest(fileName: fileName) {
            self.digest = digest
            isDefault = true
        } else {
            guard let digest = KeyDigest(key: "\0name\0" + fileName) else { return nil }
            self.digest = digest
            isDefault = false
        }
        self.fileName = fileName
    }

    /// The default name of `digest`'s entry: 64 lowercase hexadecimal digits.
    init(digest: KeyDigest) {
        self.digest = digest
        fileName = digest.fileName
        isDefault = true
    }

    private static func isValidComponent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, first != UInt8(ascii: "."), bytes.count <= maximumByteCount else { return false }
        for byte in bytes where byte == UInt8(ascii: "/") || byte == 0 {
            return false
        }
        return true
    }
}
