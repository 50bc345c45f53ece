import Foundation

/// The format of disk cache entries that carry HTTP metadata: the stored bytes, then a trailer the pipeline owns,
/// written through the plain ``DataCaching`` interface, so any cache stores them without knowing of it.
///
/// ```
/// body · format 2 · kind (1 original, 2 derived, 3 failure) · metadata fields · varying request headers · FNV-1a checksum of the trailer
///      · body length (UInt64) · "NukeHTTP"
/// ```
/// Numbers are little-endian; absent dates are NaN. The metadata follows the body so that reading an entry hands
/// the body on without copying it (a prefix of the bytes the cache returned). Bytes that don't end with the magic
/// are a plain entry (data stored before, under ``ImagePipeline/HTTPCachePolicy/ignoreHeaders``, or by the app);
/// bytes that end with it but whose trailer doesn't parse to the exact length, or fails the checksum, are damaged: a
/// miss. A failure (an error status stored while fresh, RFC 9111's negative caching) has an empty body.
enum HTTPCacheEntry: Equatable {
    /// Bytes without the trailer: stored by the app, or with the headers ignored.
    case plain(Data)
    /// An original with the metadata of the response it came from.
    case original(HTTPCacheMetadata, body: Data)
    /// An encoded, processed image with the metadata of the original it was made from.
    case derived(HTTPCacheMetadata, body: Data)
    /// A response with a status outside 2xx that the loader failed, kept without its body: while it is fresh,
    /// requests for the URL fail with its status instead of loading (``CachedHTTPStatusError``).
    case failure(HTTPCacheMetadata)
    /// Starts like an entry of this format but isn't one.
    case damaged

    static let magic = Data("NukeHTTP".utf8)
    /// 2 adds the varying request headers; entries of format 1 (without them) are still read.
    private static let formatVersion: UInt8 = 2

    /// The stored bytes of the entry: `nil` for a damaged entry and for a failure, which has none to serve.
    var body: Data? {
        switch self {
        case let .plain(body), let .original(_, body), let .derived(_, body): body
        case .failure, .damaged: nil
        }
    }

    /// The metadata of the entry, if it has any.
    var metadata: HTTPCacheMetadata? {
        switch self {
        case let .original(metadata, _), let .derived(metadata, _), let .failure(metadata): metadata
        case .plain, .damaged: nil
        }
    }

    /// Reads the bytes of a disk cache entry.
    init(decoding data: Data) {
        let trailerEnd = data.count - Self.magic.count - 8  // Where the body length starts.
        guard trailerEnd >= 0 else {
            self = .plain(data)
            return
        }
        // One pass over the raw bytes, without Data's per-byte indexing: this runs on every disk hit.
        let trailer: Trailer? = data.withUnsafeBytes { bytes in
            guard bytes[(trailerEnd + 8)...].elementsEqual(Self.magic) else { return .plain }
            var lengthReader = Reader(bytes: bytes, offset: trailerEnd)
            guard let bodyLength: UInt64 = lengthReader.readInteger(), bodyLength <= UInt64(trailerEnd) else {
                return nil
            }
            var reader = Reader(bytes: bytes, offset: Int(bodyLength))
            return reader.readTrailer(end: trailerEnd)
        }
        switch trailer {
        case .plain?:
            self = .plain(data)
        case let .entry(kind, metadata, bodyLength)?:
            let body = data.prefix(bodyLength)  // Shares the cache's bytes: no copy.
            switch kind {
            case .original: self = .original(metadata, body: body)
            case .derived: self = .derived(metadata, body: body)
            case .failure: self = bodyLength == 0 ? .failure(metadata) : .damaged
            }
        case nil:
            self = .damaged
        }
    }

    /// The bytes to store: plain bodies as they are, the others followed by the trailer.
    func encoded() -> Data {
        let (kind, metadata, body): (UInt8, HTTPCacheMetadata, Data)
        switch self {
        case let .plain(body): return body
        case .damaged: return Data()
        case let .original(value, data): (kind, metadata, body) = (Kind.original.rawValue, value, data)
        case let .derived(value, data): (kind, metadata, body) = (Kind.derived.rawValue, value, data)
        case let .failure(value): (kind, metadata, body) = (Kind.failure.rawValue, value, Data())
        }
        var output = Data()
        output.reserveCapacity(body.count + 160)
        output.append(body)
        let start = output.count
        output.append(Self.formatVersion)
        output.append(kind)
        output.appendInteger(UInt16(clamping: metadata.statusCode))
        for date in [metadata.requestTime, metadata.responseTime] {
            output.appendInteger(date.timeIntervalSince1970.bitPattern)
        }
        for value in [metadata.date?.timeIntervalSince1970, metadata.expires?.timeIntervalSince1970, metadata.age] {
            output.appendInteger((value ?? .nan).bitPattern)
        }
        let control = metadata.cacheControl
        for value in [control.maxAge, control.staleWhileRevalidate, control.staleIfError] {
            output.appendInteger(Int64(value ?? -1))
        }
        var flags: UInt8 = 0
        let flagged = [
            control.noCache, control.noStore, control.mustRevalidate, control.immutable, control.mustUnderstand,
            control.isPublic,
        ]
        for (bit, isSet) in flagged.enumerated() where isSet {
            flags |= 1 << bit
        }
        output.append(flags)
        for text in [metadata.etag, metadata.lastModified] {
            // A validator longer than the field holds is dropped, not cut: a cut one would never match, and a cut
            // inside a UTF-8 sequence would make the entry unreadable (a miss on every load).
            let bytes = text.map { Data($0.utf8) }.flatMap { $0.count < Int(UInt16.max) ? $0 : nil }
            output.appendInteger(bytes.map { UInt16($0.count) } ?? UInt16.max)
            output.append(bytes ?? Data())
        }
        // The varying request headers: a count, then each name and its value (absent: UInt16.max). Only as many as
        // fit in the count and with texts short enough are kept; a request never matches a name that was dropped,
        // so an entry that lost one is a miss, never a wrong variant.
        let names = metadata.varyingHeaderNames.prefix(Int(UInt16.max - 1))
        output.appendInteger(UInt16(names.count))
        for name in names {
            for text in [name, metadata.varyingHeaderValues[name]] {
                let bytes = text.map { Data($0.utf8) }.flatMap { $0.count < Int(UInt16.max) ? $0 : nil }
                output.appendInteger(bytes.map { UInt16($0.count) } ?? UInt16.max)
                output.append(bytes ?? Data())
            }
        }
        output.appendInteger(fnv1a(output[start...]))
        output.appendInteger(UInt64(body.count))
        output.append(Self.magic)
        return output
    }

    /// What the end of an entry's bytes says: no trailer, or a trailer with the metadata and the body's length.
    private enum Trailer {
        case plain
        case entry(Kind, HTTPCacheMetadata, bodyLength: Int)
    }

    /// The kind byte of the trailer.
    private enum Kind: UInt8 {
        case original = 1
        case derived = 2
        case failure = 3
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset: Int

        /// The trailer from ``offset`` (the end of the body) to `end` (where the body length starts).
        mutating func readTrailer(end trailerEnd: Int) -> Trailer? {
            let start = offset
            guard let version = readByte(), version == 1 || version == HTTPCacheEntry.formatVersion,
                let kind = readByte().flatMap(Kind.init(rawValue:)),
                let status: UInt16 = readInteger(), let requestTime = readDouble(), let responseTime = readDouble(),
                let date = readDouble(), let expires = readDouble(), let age = readDouble(),
                let maxAge: Int64 = readInteger(), let swr: Int64 = readInteger(), let sie: Int64 = readInteger(),
                let flags = readByte(), let etag = readText(), let lastModified = readText()
            else { return nil }
            var varyingNames: [String] = []
            var varyingValues: [String: String] = [:]
            if version >= 2 {
                guard let count: UInt16 = readInteger() else { return nil }
                for _ in 0..<count {
                    guard let name = readText(), let value = readText() else { return nil }
                    // A name too long to store was written as absent: no request matches it.
                    varyingNames.append(name.value ?? "\u{0}")
                    if let name = name.value, let value = value.value { varyingValues[name] = value }
                }
            }
            let end = offset
            guard let checksum: UInt32 = readInteger(), offset == trailerEnd,
                checksum == fnv1a(UnsafeRawBufferPointer(rebasing: bytes[start..<end])), requestTime.isFinite,
                responseTime.isFinite
            else { return nil }
            var control = HTTPCacheControl()
            control.maxAge = maxAge >= 0 ? Int(maxAge) : nil
            control.staleWhileRevalidate = swr >= 0 ? Int(swr) : nil
            control.staleIfError = sie >= 0 ? Int(sie) : nil
            control.noCache = flags & 1 != 0
            control.noStore = flags & 2 != 0
            control.mustRevalidate = flags & 4 != 0
            control.immutable = flags & 8 != 0
            control.mustUnderstand = flags & 16 != 0
            control.isPublic = flags & 32 != 0
            var metadata = HTTPCacheMetadata(
                statusCode: Int(status), etag: etag.value, lastModified: lastModified.value,
                date: date.isNaN ? nil : Date(timeIntervalSince1970: date),
                expires: expires.isNaN ? nil : Date(timeIntervalSince1970: expires), age: age.isNaN ? nil : age,
                cacheControl: control, requestTime: Date(timeIntervalSince1970: requestTime),
                responseTime: Date(timeIntervalSince1970: responseTime))
            metadata.varyingHeaderNames = varyingNames
            metadata.varyingHeaderValues = varyingValues
            return .entry(kind, metadata, bodyLength: start)
        }

        mutating func readByte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func readInteger<T: FixedWidthInteger>() -> T? {
            let size = MemoryLayout<T>.size
            guard bytes.count - offset >= size else { return nil }
            let value = T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            offset += size
            return value
        }

        mutating func readDouble() -> Double? {
            (readInteger() as UInt64?).map(Double.init(bitPattern:))
        }

        /// A length-prefixed UTF-8 string; the outer optional is a read failure, the inner one an absent value.
        mutating func readText() -> Text? {
            guard let length: UInt16 = readInteger() else { return nil }
            if length == .max { return Text(value: nil) }
            guard bytes.count - offset >= Int(length) else { return nil }
            let text = String(validating: bytes[offset..<(offset + Int(length))], as: UTF8.self)
            offset += Int(length)
            guard let text else { return nil }
            return Text(value: text)
        }

        struct Text {
            let value: String?
        }
    }
}

/// The 32-bit FNV-1a hash of `bytes`.
private func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes {
        hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    return hash
}

/// The 32-bit FNV-1a hash of `bytes`.
private func fnv1a(_ bytes: Data) -> UInt32 {
    bytes.withUnsafeBytes { fnv1a($0) }
}

extension Data {
    fileprivate mutating func appendInteger<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
