/// The rotation (`irot`) and mirror (`imir`) properties of every image item, read from `iprp` (`ipco` and `ipma`).
///
/// libheif 1.15 applies them but can't report them; the decoder compares a thumbnail item's with the primary
/// image's, so that a thumbnail stored in another orientation is never shown in place of the image. Reads the box
/// structure only, bounds-checked.
struct HEIFTransforms {
    /// An item's transforms: the anticlockwise rotation in quarter turns and the mirror axis, if any.
    struct Transform: Hashable {
        var quarterTurns = 0
        var mirrorAxis: Int?
    }

    private var transforms: [UInt32: Transform] = [:]

    /// Reads the properties of `bytes`; a file without them has no transforms.
    init(bytes: UnsafeRawBufferPointer) {
        guard let iprp = HEIFBoxReader.metaChildren(of: bytes).first(where: { $0.type == "iprp" }) else { return }
        var reader = HEIFBoxReader(bytes: bytes, range: iprp.payload)
        let boxes = reader.boxes()
        guard let ipco = boxes.first(where: { $0.type == "ipco" }) else { return }
        var properties = HEIFBoxReader(bytes: bytes, range: ipco.payload)
        let list = properties.boxes()
        for ipma in boxes where ipma.type == "ipma" {
            read(ipma, properties: list, bytes: bytes)
        }
    }

    /// The transforms of item `id` (none when it has neither property).
    subscript(id: UInt32) -> Transform {
        transforms[id] ?? Transform()
    }

    private mutating func read(_ ipma: HEIFBox, properties: [HEIFBox], bytes: UnsafeRawBufferPointer) {
        let box = ipma.payload
        guard let version = bytes.uint8(at: box.lowerBound),
            let flags = bytes.uint(at: box.lowerBound + 1, size: 3, within: box),
            let count = bytes.uint(at: box.lowerBound + 4, size: 4, within: box)
        else { return }
        var at = box.lowerBound + 8
        let idSize = version < 1 ? 2 : 4
        let indexSize = flags & 1 == 1 ? 2 : 1
        for _ in 0..<min(count, UInt64(box.count)) {
            guard let id = bytes.uint(at: at, size: idSize, within: box),
                let associations = bytes.uint(at: at + idSize, size: 1, within: box)
            else { return }
            at += idSize + 1
            var transform = Transform()
            for _ in 0..<associations {
                guard let value = bytes.uint(at: at, size: indexSize, within: box) else { return }
                at += indexSize
                let index = Int(value & (indexSize == 2 ? 0x7FFF : 0x7F))  // 1-based; the top bit is "essential".
                guard index >= 1, index <= properties.count else { continue }
                let property = properties[index - 1]
                guard let byte = bytes.uint(at: property.payload.lowerBound, size: 1, within: property.payload) else {
                    continue
                }
                if property.type == "irot" { transform.quarterTurns = Int(byte & 3) }
                if property.type == "imir" { transform.mirrorAxis = Int(byte & 1) }
            }
            transforms[UInt32(truncatingIfNeeded: id)] = transform
        }
    }
}
