import NukeCore

/// The canvas sizes that the derived image items of a HEIF file (`grid` and `iovl`) declare in their own data.
///
/// libheif 1.15 allocates a derived image's canvas at the size its data declares, not at the size of its `ispe`
/// property, and checks that size only against its side limit: a 3 KB grid whose `ispe` says 29×100 can make it
/// allocate 30000×30000 pixels. This reader finds every derived item in the `meta` box (`iinf`), locates its data
/// (`iloc`, in `idat` or in the file) and reads the declared size, so that it is checked before libheif decodes.
/// It reads the box structure only, bounds-checked, and never more than the data holds.
struct HEIFDerivedImages {
    /// One derived item: its type (`grid` or `iovl`) and the canvas size its data declares.
    struct Item: Hashable {
        var type: String
        var width: Int
        var height: Int
    }

    /// The derived items, in `iinf` order.
    private(set) var items: [Item] = []

    /// Reads the derived items of `bytes`. A file without a `meta` box, or without derived items, has none.
    ///
    /// - Throws: `ImageDecoders.HEIF.Error.invalidData` when a derived item's data can't be located or read: libheif
    ///   would read a size from it that nothing has checked.
    init(bytes: UnsafeRawBufferPointer) throws(ImageDecoders.HEIF.Error) {
        let boxes = HEIFBoxReader.metaChildren(of: bytes)
        guard let iinf = boxes.first(where: { $0.type == "iinf" }) else { return }
        let derived = Self.derivedItems(bytes, iinf: iinf)
        guard !derived.isEmpty else { return }
        guard let iloc = boxes.first(where: { $0.type == "iloc" }) else {
            throw .invalidData(message: "a derived image has no location ('iloc')")
        }
        let locations = Self.locations(bytes, iloc: iloc)
        let idat = boxes.first(where: { $0.type == "idat" })?.payload
        for (id, type) in derived {
            guard let location = locations[id], let start = Self.start(of: location, idat: idat, count: bytes.count),
                let size = Self.canvasSize(bytes, type: type, at: start)
            else { throw .invalidData(message: "the data of derived image \(id) ('\(type)') can't be read") }
            items.append(Item(type: type, width: size.width, height: size.height))
        }
    }

    /// The IDs and types of the `grid` and `iovl` items of `iinf` (item info entries of version 2 or 3).
    private static func derivedItems(_ bytes: UnsafeRawBufferPointer, iinf: HEIFBox) -> [(id: UInt32, type: String)] {
        let version = bytes.uint8(at: iinf.payload.lowerBound) ?? 0
        let entries = iinf.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard entries <= iinf.payload.upperBound else { return [] }
        var reader = HEIFBoxReader(bytes: bytes, range: entries..<iinf.payload.upperBound)
        return reader.boxes().compactMap { infe in
            guard infe.type == "infe", let version = bytes.uint8(at: infe.payload.lowerBound), version >= 2 else {
                return nil
            }
            let idSize = version == 2 ? 2 : 4
            let at = infe.payload.lowerBound + 4
            guard let id = bytes.uint(at: at, size: idSize, within: infe.payload),
                let type = bytes.fourCC(at: at + idSize + 2, within: infe.payload), type == "grid" || type == "iovl"
            else { return nil }
            return (UInt32(id), type)
        }
    }

    /// Where an item's data starts: its construction method and the offset of its first extent.
    private struct Location {
        var method: Int
        var offset: Int
    }

    /// The first extent of every item in `iloc` (versions 0 to 2).
    private static func locations(_ bytes: UnsafeRawBufferPointer, iloc: HEIFBox) -> [UInt32: Location] {
        let box = iloc.payload
        guard let version = bytes.uint8(at: box.lowerBound), version <= 2,
            let sizes = bytes.uint8(at: box.lowerBound + 4), let sizes2 = bytes.uint8(at: box.lowerBound + 5)
        else { return [:] }
        let offsetSize = Int(sizes >> 4)
        let lengthSize = Int(sizes & 15)
        let baseOffsetSize = Int(sizes2 >> 4)
        let indexSize = version >= 1 ? Int(sizes2 & 15) : 0
        var at = box.lowerBound + 6
        let countSize = version < 2 ? 2 : 4
        guard let count = bytes.uint(at: at, size: countSize, within: box) else { return [:] }
        at += countSize
        var result: [UInt32: Location] = [:]
        for _ in 0..<min(count, UInt64(box.count / 4)) {
            let idSize = version < 2 ? 2 : 4
            guard let id = bytes.uint(at: at, size: idSize, within: box) else { break }
            at += idSize
            var method = 0
            if version >= 1 {
                guard let value = bytes.uint(at: at, size: 2, within: box) else { break }
                method = Int(value & 15)
                at += 2
            }
            at += 2  // data_reference_index
            guard let base = bytes.uint(at: at, size: baseOffsetSize, within: box) else { break }
            at += baseOffsetSize
            guard let extents = bytes.uint(at: at, size: 2, within: box) else { break }
            at += 2
            var first: UInt64?
            for _ in 0..<extents {
                at += indexSize
                guard let offset = bytes.uint(at: at, size: offsetSize, within: box) else { return result }
                at += offsetSize + lengthSize
                if first == nil { first = offset }
            }
            let (sum, overflow) = base.addingReportingOverflow(first ?? 0)
            if !overflow, sum <= UInt64(Int.max), result[UInt32(truncatingIfNeeded: id)] == nil {
                result[UInt32(truncatingIfNeeded: id)] = Location(method: method, offset: Int(sum))
            }
        }
        return result
    }

    /// The position of an item's data in the file: in the file itself (method 0) or in `idat` (method 1).
    private static func start(of location: Location, idat: Range<Int>?, count: Int) -> Int? {
        switch location.method {
        case 0: return location.offset < count ? location.offset : nil
        case 1:
            guard let idat, location.offset < idat.count else { return nil }
            return idat.lowerBound + location.offset
        default: return nil
        }
    }

    /// The output size a `grid` (ISO/IEC 23008-12 6.6.2.3) or `iovl` (6.6.2.2) item's data declares.
    private static func canvasSize(
        _ bytes: UnsafeRawBufferPointer, type: String, at start: Int
    ) -> (width: Int, height: Int)? {
        guard let flags = bytes.uint8(at: start + 1) else { return nil }
        let fieldSize = flags & 1 == 1 ? 4 : 2
        // grid: version, flags, rows - 1, columns - 1; iovl: version, flags, a fill colour of 4 × 16 bits.
        let sizeAt = start + (type == "grid" ? 4 : 10)
        let all = 0..<bytes.count
        guard let width = bytes.uint(at: sizeAt, size: fieldSize, within: all),
            let height = bytes.uint(at: sizeAt + fieldSize, size: fieldSize, within: all)
        else { return nil }
        return (Int(width), Int(height))
    }
}
