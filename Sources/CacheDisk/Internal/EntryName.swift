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

    /// `nil` unless `fileName` is one path component the cache may own: not empty, at most 255 UTF-8 bytes, no
    /// `/` or NUL, and not starting with `.` (so not `.`, `..`, the metadata directory or a hidden file).
    init?(fileName: String) {
        let utf8 = fileName.utf8
        guard let first = utf8.first, first != UInt8(ascii: "."), utf8.count <= EntryName.maximumByteCount,
            !utf8.contains(UInt8(ascii: "/")), !utf8.contains(0)
        else { return nil }
        if let digest = KeyDigest(fileName: fileName) {
            self.digest = digest
        } else {
            guard let digest = KeyDigest(key: "\0name\0" + fileName) else { return nil }
            self.digest = digest
        }
        self.fileName = fileName
    }

    /// The default name of `digest`'s entry: 64 lowercase hexadecimal digits.
    init(digest: KeyDigest) {
        self.digest = digest
        fileName = digest.fileName
    }

    /// `true` for a default (hexadecimal) name, which maps to its digest without a directory listing.
    var isDefault: Bool { fileName == digest.fileName }
}
