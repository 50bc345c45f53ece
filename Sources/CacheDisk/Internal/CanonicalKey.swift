import Foundation

extension DataCache {
    /// `key` in Unicode Normalization Form C, so that keys Swift considers equal (`"e\u{301}" == "\u{e9}"`)
    /// name one entry on disk, just as they name one staged change. ASCII keys (URLs) are returned as they are.
    static func canonicalKey(_ key: String) -> String {
        let isASCII =
            key.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } }
            ?? key.utf8.allSatisfy { $0 < 0x80 }
        return isASCII ? key : key.precomposedStringWithCanonicalMapping
    }
}
