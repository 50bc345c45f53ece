// The MIT License (MIT)
//
// Nuke for Linux. AssetType mirrors the public surface of Nuke's `AssetType`.

public import Foundation

/// An identifier of an asset (image or video) format, modelled after a uniform type identifier (UTI).
///
/// `AssetType` is a thin, string-backed value: two values are equal if and only if their ``rawValue``s are
/// equal (case-sensitive). The predefined constants use the same UTI-style raw values as Nuke on Apple
/// platforms (for example `"public.png"`), so values can be persisted and compared across platforms.
/// Any string is a valid raw value; custom formats can be declared with a string literal:
///
/// ```swift
/// extension AssetType {
///     static let openEXR: AssetType = "com.ilm.openexr-image"
/// }
/// ```
///
/// Use ``init(_:)`` to detect the format of encoded data from its leading bytes, and ``mimeType`` /
/// ``init(mimeType:)`` to convert to and from MIME types (for example a `Content-Type` header).
public struct AssetType: ExpressibleByStringLiteral, Hashable, Sendable, CustomStringConvertible, RawRepresentable {
    /// The UTI-style identifier of the format, for example `"public.png"`.
    public let rawValue: String

    /// Creates an asset type with the given identifier. Never fails; any string is accepted verbatim.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates an asset type from a string literal used verbatim as the ``rawValue``.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The ``rawValue``.
    public var description: String { rawValue }

    /// PNG (Portable Network Graphics), `"public.png"`.
    public static let png: AssetType = "public.png"

    /// JPEG, `"public.jpeg"`.
    public static let jpeg: AssetType = "public.jpeg"

    /// GIF (Graphics Interchange Format), `"com.compuserve.gif"`.
    public static let gif: AssetType = "com.compuserve.gif"

    /// WebP, `"org.webmproject.webp"`.
    public static let webp: AssetType = "org.webmproject.webp"

    /// SVG (Scalable Vector Graphics), `"public.svg-image"`.
    public static let svg: AssetType = "public.svg-image"

    /// AVIF (AV1 Image File Format), `"public.avif"`.
    public static let avif: AssetType = "public.avif"

    /// HEIC, HEVC-coded HEIF as produced by Apple devices, `"public.heic"`.
    public static let heic: AssetType = "public.heic"

    /// HEIF (High Efficiency Image File Format) with an unspecified codec, `"public.heif"`.
    ///
    /// Never detected by ``init(_:)``: the generic HEIF brands (`mif1`, `msf1`) say nothing about the codec,
    /// so data that declares no more specific brand is typed by its items' codec (``heic``, ``avif``) or is
    /// unknown. Known by its MIME type.
    public static let heif: AssetType = "public.heif"

    /// BMP (Windows bitmap), `"com.microsoft.bmp"`.
    public static let bmp: AssetType = "com.microsoft.bmp"

    /// ICO (Windows icon), `"com.microsoft.ico"`.
    public static let ico: AssetType = "com.microsoft.ico"

    /// TIFF (Tagged Image File Format), `"public.tiff"`.
    public static let tiff: AssetType = "public.tiff"

    /// JPEG 2000, `"public.jpeg-2000"`.
    public static let jpeg2000: AssetType = "public.jpeg-2000"

    /// JPEG XL, `"public.jpeg-xl"`.
    public static let jxl: AssetType = "public.jpeg-xl"

    /// MPEG-4 video, `"public.mpeg-4"`.
    public static let mp4: AssetType = "public.mpeg-4"

    /// Apple's M4V video (MPEG-4, optionally with DRM), `"com.apple.m4v-video"`.
    public static let m4v: AssetType = "com.apple.m4v-video"

    /// QuickTime movie, `"com.apple.quicktime-movie"`.
    public static let mov: AssetType = "com.apple.quicktime-movie"

    /// All predefined types, in declaration order.
    static let knownTypes: [AssetType] = [
        .png, .jpeg, .gif, .webp, .svg, .avif, .heic, .heif, .bmp, .ico, .tiff, .jpeg2000, .jxl, .mp4, .m4v, .mov,
    ]
}

// MARK: - Content Sniffing

extension AssetType {
    /// The maximum number of leading bytes that are ever inspected by ``init(_:)``.
    static let sniffingLimit = 4096

    /// Detects the format of encoded data by inspecting its leading bytes ("magic numbers").
    ///
    /// Returns `nil` when the data is not recognised as one of the predefined types. Only a bounded prefix
    /// (at most the first 4 KB) is examined, so the cost is independent of the size of `data`. Any input is
    /// accepted, including empty data, truncated headers and slices whose `startIndex` is not zero; the
    /// initializer never traps and never reads outside `data`.
    ///
    /// Recognised signatures:
    /// - ``png``: `89 50 4E 47 0D 0A 1A 0A`.
    /// - ``jpeg``: `FF D8 FF`.
    /// - ``gif``: `GIF87a` or `GIF89a`.
    /// - ``webp``: `RIFF`, a 4-byte size, then `WEBP`.
    /// - ``tiff``: `II*\0` (little-endian) or `MM\0*` (big-endian).
    /// - ``jpeg2000``: the JP2 signature box `00 00 00 0C 6A 50 20 20 0D 0A 87 0A`, or a raw codestream
    ///   (`FF 4F FF 51`).
    /// - ``jxl``: the container signature box `00 00 00 0C 4A 58 4C 20 0D 0A 87 0A`, or a bare codestream
    ///   (`FF 0A`).
    /// - ``ico``: `00 00 01 00` (cursors, type 2, are not matched).
    /// - ``bmp``: `BM`.
    /// - ISO base media files (`ftyp` box at offset 4), by the major brand: ``avif`` (`avif`, `avis`),
    ///   ``heic`` (`heic`, `heix`, `heim`, `heis`, `hevc`, `hevx`, `hevm`, `hevs`), ``mp4`` (`isom`,
    ///   `iso2`...`iso9`, `mp41`, `mp42`, `mmp4`, `avc1`, `dash`), ``m4v`` (`M4V `, `M4VH`, `M4VP`) or
    ///   ``mov`` (`qt  `). The generic HEIF brands `mif1` and `msf1` leave the codec to the compatible brands
    ///   (bounded by the box size and the inspected prefix): an AVIF brand gives ``avif``, else a HEIC brand
    ///   gives ``heic``. With neither (files written by some cameras and tools), the item types in the `meta`
    ///   box that follows decide, where Nuke would give up: the primary item coded as HEVC (`hvc1`) gives
    ///   ``heic``, as AV1 (`av01`) ``avif``, and a grid or overlay primary item the first coded item's codec;
    ///   else the data is unknown. Other major brands (`M4A `, `3gp4`...) are unknown.
    /// - ``svg``: textual content that, after an optional UTF-8 byte order mark, whitespace, XML
    ///   declaration or processing instructions, comments and an `<!DOCTYPE svg ...>`, starts with an
    ///   `<svg` tag (followed by whitespace, `>` or `/`) that lies entirely within the first 4 KB. Only
    ///   UTF-8 (and ASCII) text is recognised; UTF-16 encoded SVG and namespace-prefixed roots
    ///   (`<svg:svg>`) are not.
    public init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(AssetType.sniffingLimit))
        guard let type = AssetType.sniff(bytes) else {
            return nil
        }
        self = type
    }

    /// Sniffs a byte buffer that is already limited to ``sniffingLimit`` bytes and indexed from zero.
    private static func sniff(_ bytes: [UInt8]) -> AssetType? {
        if bytes.hasPrefix([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if bytes.hasPrefix([0xFF, 0xD8, 0xFF]) {
            return .jpeg
        }
        if bytes.hasPrefix(SniffingMagic.gif87a) || bytes.hasPrefix(SniffingMagic.gif89a) {
            return .gif
        }
        if bytes.hasPrefix(SniffingMagic.riff) && bytes.matches(SniffingMagic.webp, at: 8) {
            return .webp
        }
        if bytes.hasPrefix([0x49, 0x49, 0x2A, 0x00]) || bytes.hasPrefix([0x4D, 0x4D, 0x00, 0x2A]) {
            return .tiff
        }
        if bytes.hasPrefix([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
            || bytes.hasPrefix([0xFF, 0x4F, 0xFF, 0x51])
        {
            return .jpeg2000
        }
        if bytes.hasPrefix([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
            || bytes.hasPrefix([0xFF, 0x0A])
        {
            return .jxl
        }
        // Before ICO: a 256-byte `ftyp` box also starts with `00 00 01 00`.
        if bytes.matches(SniffingMagic.ftyp, at: 4) {
            return sniffISOBaseMedia(bytes)
        }
        if bytes.hasPrefix([0x00, 0x00, 0x01, 0x00]) {
            return .ico
        }
        if bytes.hasPrefix([0x42, 0x4D]) {
            return .bmp
        }
        if isSVG(bytes) {
            return .svg
        }
        return nil
    }

    // MARK: ISO Base Media File Format (ISO/IEC 14496-12)

    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let heifBrands: Set<String> = ["mif1", "msf1"]
    private static let mp4Brands: Set<String> = [
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9",
        "mp41", "mp42", "mmp4", "avc1", "dash",
    ]
    private static let m4vBrands: Set<String> = ["M4V ", "M4VH", "M4VP"]
    private static let movBrands: Set<String> = ["qt  "]

    /// The maximum number of compatible brands that are examined.
    private static let maxCompatibleBrands = 64

    private static func sniffISOBaseMedia(_ bytes: [UInt8]) -> AssetType? {
        guard bytes.matches(SniffingMagic.ftyp, at: 4), let size32 = bytes.uint32BE(at: 0) else {
            return nil
        }
        // The payload (major brand, minor version, compatible brands) follows the box header, which is
        // 16 bytes long when the 32-bit size is 1 and a 64-bit size follows the type.
        let payloadStart: Int
        let boxEnd: UInt64
        switch size32 {
        case 0:  // The box extends to the end of the file.
            payloadStart = 8
            boxEnd = UInt64.max
        case 1:
            guard let size64 = bytes.uint64BE(at: 8) else {
                return nil
            }
            payloadStart = 16
            boxEnd = size64
        default:
            payloadStart = 8
            boxEnd = UInt64(size32)
        }
        guard boxEnd >= UInt64(payloadStart + 8), let major = bytes.fourCC(at: payloadStart) else {
            return nil
        }
        let majorGroups: [(brands: Set<String>, type: AssetType)] = [
            (avifBrands, .avif), (heicBrands, .heic), (mp4Brands, .mp4), (m4vBrands, .m4v), (movBrands, .mov),
        ]
        if let group = majorGroups.first(where: { $0.brands.contains(major) }) {
            return group.type
        }
        guard heifBrands.contains(major) else {
            return nil
        }
        var brands: [String] = []
        let end = Int(min(boxEnd, UInt64(bytes.count)))
        var offset = payloadStart + 8
        while offset + 4 <= end, brands.count < maxCompatibleBrands, let brand = bytes.fourCC(at: offset) {
            brands.append(brand)
            offset += 4
        }
        // The generic brand leaves the codec to the compatible brands, else to the items themselves.
        let codecGroups: [(brands: Set<String>, type: AssetType)] = [(avifBrands, .avif), (heicBrands, .heic)]
        if let type = codecGroups.first(where: { group in brands.contains(where: group.brands.contains) })?.type {
            return type
        }
        guard boxEnd <= UInt64(bytes.count) else { return nil }
        return sniffHEIFItems(bytes, from: Int(boxEnd))
    }

    /// The codec of a HEIF file that names none in its brands (only `mif1`/`msf1`), from the item types in its
    /// `meta` box (ISO/IEC 23008-12): the primary item's (`pitm`) type if it is coded (`hvc1` gives ``heic``,
    /// `av01` gives ``avif``), else, for a derived primary item (`grid`, `iovl`), the first coded item's.
    /// `nil` when the boxes aren't within `bytes` or name no codec.
    private static func sniffHEIFItems(_ bytes: [UInt8], from start: Int) -> AssetType? {
        guard let meta = childBoxes(of: bytes, in: start..<bytes.count).first(where: { $0.type == "meta" }),
            meta.payload.count >= 4
        else { return nil }
        var primaryID: UInt32?
        var itemTypes: [(id: UInt32, type: String)] = []
        // `meta` is a full box: version and flags, then its children.
        for child in childBoxes(of: bytes, in: (meta.payload.lowerBound + 4)..<meta.payload.upperBound) {
            let payload = child.payload
            guard payload.count >= 4 else { continue }
            let version = bytes[payload.lowerBound]
            if child.type == "pitm" {
                primaryID =
                    version == 0
                    ? bytes.uint16BE(at: payload.lowerBound + 4).map(UInt32.init)
                    : bytes.uint32BE(at: payload.lowerBound + 4)
            } else if child.type == "iinf" {
                let entries = payload.lowerBound + 4 + (version == 0 ? 2 : 4)
                guard entries <= payload.upperBound else { continue }
                for entry in childBoxes(of: bytes, in: entries..<payload.upperBound) where entry.type == "infe" {
                    // Versions 2 and 3 (the ones HEIF uses): item ID (16 or 32 bits), protection index, type.
                    let fields = entry.payload.lowerBound + 4
                    guard entry.payload.count >= 4, (2...3).contains(bytes[entry.payload.lowerBound]) else { continue }
                    let isVersion3 = bytes[entry.payload.lowerBound] == 3
                    let id = isVersion3 ? bytes.uint32BE(at: fields) : bytes.uint16BE(at: fields).map(UInt32.init)
                    let typeOffset = fields + (isVersion3 ? 4 : 2) + 2
                    guard let id, typeOffset + 4 <= entry.payload.upperBound, let type = bytes.fourCC(at: typeOffset)
                    else { continue }
                    itemTypes.append((id, type))
                }
            }
        }
        let codecs: [String: AssetType] = ["hvc1": .heic, "av01": .avif]
        if let primaryID, let primary = itemTypes.first(where: { $0.id == primaryID }),
            let type = codecs[primary.type]
        {
            return type
        }
        return itemTypes.lazy.compactMap { codecs[$0.type] }.first
    }

    /// The boxes that follow one another in `range` of `bytes`, up to the first that is cut or malformed: each
    /// one's type and payload range. A 32-bit size of 1 means a 64-bit size follows; 0, that the box extends to
    /// the end of `range`.
    private static func childBoxes(of bytes: [UInt8], in range: Range<Int>) -> [(type: String, payload: Range<Int>)] {
        var boxes: [(type: String, payload: Range<Int>)] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, boxes.count < maxChildBoxes,
            let size32 = bytes.uint32BE(at: offset), let type = bytes.fourCC(at: offset + 4)
        {
            var header = 8
            var size = UInt64(size32)
            if size32 == 1 {
                guard offset + 16 <= range.upperBound, let size64 = bytes.uint64BE(at: offset + 8) else { break }
                header = 16
                size = size64
            } else if size32 == 0 {
                size = UInt64(range.upperBound - offset)
            }
            guard size >= UInt64(header), size <= UInt64(range.upperBound - offset) else { break }
            let end = offset + Int(size)
            boxes.append((type, (offset + header)..<end))
            offset = end
        }
        return boxes
    }

    /// The most boxes ``childBoxes(of:in:)`` reads at one level: a 4 KB prefix holds at most 512.
    private static let maxChildBoxes = 512

    // MARK: SVG

    private static func isSVG(_ bytes: [UInt8]) -> Bool {
        var scanner = ByteScanner(bytes: bytes)
        _ = scanner.skip([0xEF, 0xBB, 0xBF])  // UTF-8 byte order mark.
        while true {
            scanner.skipWhitespace()
            // An XML declaration or another processing instruction.
            if scanner.skip(SniffingMagic.processingInstructionStart) {
                guard scanner.skip(past: SniffingMagic.processingInstructionEnd) else {
                    return false
                }
            } else if scanner.skip(SniffingMagic.commentStart) {
                guard scanner.skip(past: SniffingMagic.commentEnd) else {
                    return false
                }
            } else if scanner.skip(SniffingMagic.doctype, caseInsensitive: true) {
                guard scanner.skipWhitespace() > 0,
                    scanner.skip(SniffingMagic.svg, caseInsensitive: true),
                    scanner.skipDoctypeRemainder()
                else {
                    return false
                }
            } else {
                break
            }
        }
        guard scanner.skip(SniffingMagic.svgTag), let next = scanner.peek() else {
            return false
        }
        return ByteScanner.isWhitespace(next) || next == UInt8(ascii: ">") || next == UInt8(ascii: "/")
    }
}

/// A forward-only cursor over a byte buffer. Every operation is bounds-checked and either advances the
/// cursor or leaves it where it was.
private struct ByteScanner {
    let bytes: [UInt8]
    var position = 0

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    func peek() -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    /// Skips XML whitespace and returns the number of bytes skipped.
    @discardableResult
    mutating func skipWhitespace() -> Int {
        let start = position
        while let byte = peek(), ByteScanner.isWhitespace(byte) {
            position += 1
        }
        return position - start
    }

    /// Skips `token` if the bytes at the cursor match it; ASCII letters compare case-insensitively on request.
    mutating func skip(_ token: [UInt8], caseInsensitive: Bool = false) -> Bool {
        guard bytes.count - position >= token.count else {
            return false
        }
        for (index, expected) in token.enumerated() {
            let actual = bytes[position + index]
            let equal = caseInsensitive ? asciiLowercased(actual) == asciiLowercased(expected) : actual == expected
            guard equal else {
                return false
            }
        }
        position += token.count
        return true
    }

    /// Moves the cursor just past the next occurrence of `terminator`; returns `false` if there is none.
    mutating func skip(past terminator: [UInt8]) -> Bool {
        while position < bytes.count {
            if skip(terminator) {
                return true
            }
            position += 1
        }
        return false
    }

    /// Skips the rest of a `<!DOCTYPE` declaration up to and including its closing `>`, honouring quoted
    /// literals and an internal subset in square brackets. Returns `false` if the declaration is unterminated.
    mutating func skipDoctypeRemainder() -> Bool {
        let delimiters: [UInt8] = [UInt8(ascii: ">"), UInt8(ascii: "[")]
        guard let first = peek(), ByteScanner.isWhitespace(first) || delimiters.contains(first) else {
            return false  // The root element name is longer than "svg", e.g. "svgfoo".
        }
        var quote: UInt8?
        var depth = 0
        while let byte = peek() {
            position += 1
            if let open = quote {
                if byte == open {
                    quote = nil
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth = max(0, depth - 1)
            } else if byte == UInt8(ascii: ">") && depth == 0 {
                return true
            }
        }
        return false
    }

    private func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}

extension [UInt8] {
    fileprivate func hasPrefix(_ prefix: [UInt8]) -> Bool {
        matches(prefix, at: 0)
    }

    fileprivate func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, count - offset >= pattern.count else {
            return false
        }
        return self[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    fileprivate func uint16BE(at offset: Int) -> UInt16? {
        guard offset >= 0, count - offset >= 2 else {
            return nil
        }
        return UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    fileprivate func uint32BE(at offset: Int) -> UInt32? {
        guard offset >= 0, count - offset >= 4 else {
            return nil
        }
        return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(self[offset + $1]) }
    }

    fileprivate func uint64BE(at offset: Int) -> UInt64? {
        guard offset >= 0, count - offset >= 8 else {
            return nil
        }
        return (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(self[offset + $1]) }
    }

    /// A four-character code at `offset`, decoded as Latin-1 so that every byte sequence yields a string.
    fileprivate func fourCC(at offset: Int) -> String? {
        guard offset >= 0, count - offset >= 4 else {
            return nil
        }
        return String(self[offset..<(offset + 4)].map { Character(Unicode.Scalar($0)) })
    }
}

// MARK: - MIME Types

extension AssetType {
    /// The preferred MIME type of the format, or `nil` for types that are not predefined.
    ///
    /// | Type | MIME type |
    /// | --- | --- |
    /// | ``png`` | `image/png` |
    /// | ``jpeg`` | `image/jpeg` |
    /// | ``gif`` | `image/gif` |
    /// | ``webp`` | `image/webp` |
    /// | ``svg`` | `image/svg+xml` |
    /// | ``avif`` | `image/avif` |
    /// | ``heic`` | `image/heic` |
    /// | ``heif`` | `image/heif` |
    /// | ``bmp`` | `image/bmp` |
    /// | ``ico`` | `image/vnd.microsoft.icon` |
    /// | ``tiff`` | `image/tiff` |
    /// | ``jpeg2000`` | `image/jp2` |
    /// | ``jxl`` | `image/jxl` |
    /// | ``mp4`` | `video/mp4` |
    /// | ``m4v`` | `video/x-m4v` |
    /// | ``mov`` | `video/quicktime` |
    ///
    /// For every predefined type, `AssetType(mimeType: type.mimeType!) == type`.
    public var mimeType: String? {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .svg: "image/svg+xml"
        case .avif: "image/avif"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .bmp: "image/bmp"
        case .ico: "image/vnd.microsoft.icon"
        case .tiff: "image/tiff"
        case .jpeg2000: "image/jp2"
        case .jxl: "image/jxl"
        case .mp4: "video/mp4"
        case .m4v: "video/x-m4v"
        case .mov: "video/quicktime"
        default: nil
        }
    }

    /// Creates an asset type from a MIME type, such as the value of a `Content-Type` header.
    ///
    /// Parameters after the first `;` (for example `; charset=utf-8`) and surrounding whitespace are ignored,
    /// and the comparison is case-insensitive. Besides every value returned by ``mimeType``, common aliases are
    /// accepted: `image/jpg`, `image/pjpeg`, `image/x-png`, `image/x-icon`, `image/ico`, `image/x-bmp`,
    /// `image/x-ms-bmp`, `image/x-tiff`, `image/heic-sequence`, `image/heif-sequence`, `image/jpx`,
    /// `video/m4v`. Returns `nil` for any
    /// other MIME type, including an empty string.
    public init?(mimeType: String) {
        let essence = mimeType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let key = essence.trimmingCharacters(in: .whitespaces).lowercased()
        guard let type = AssetType.typesByMIMEType[key] else {
            return nil
        }
        self = type
    }

    private static let typesByMIMEType: [String: AssetType] = {
        var map: [String: AssetType] = [
            "image/jpg": .jpeg,
            "image/pjpeg": .jpeg,
            "image/x-png": .png,
            "image/x-icon": .ico,
            "image/ico": .ico,
            "image/x-bmp": .bmp,
            "image/x-ms-bmp": .bmp,
            "image/x-tiff": .tiff,
            "image/heic-sequence": .heic,
            "image/heif-sequence": .heif,
            "image/jpx": .jpeg2000,
            "video/m4v": .m4v,
        ]
        for type in knownTypes {
            if let mimeType = type.mimeType {
                map[mimeType] = type
            }
        }
        return map
    }()
}

/// The byte sequences the sniffer looks for, made once (not per call).
private enum SniffingMagic {
    static let commentEnd = Array("-->".utf8)
    static let commentStart = Array("<!--".utf8)
    static let doctype = Array("<!DOCTYPE".utf8)
    static let ftyp = Array("ftyp".utf8)
    static let gif87a = Array("GIF87a".utf8)
    static let gif89a = Array("GIF89a".utf8)
    static let processingInstructionEnd = Array("?>".utf8)
    static let processingInstructionStart = Array("<?".utf8)
    static let riff = Array("RIFF".utf8)
    static let svg = Array("svg".utf8)
    static let svgTag = Array("<svg".utf8)
    static let webp = Array("WEBP".utf8)
}
