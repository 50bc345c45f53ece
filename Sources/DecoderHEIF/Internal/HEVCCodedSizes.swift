import NukeCore

/// The picture sizes that the HEVC sequence parameter sets of a HEIF file declare, read from every `hvcC` property.
///
/// libheif 1.15 (with libde265) decodes an HEVC item at the size its SPS declares and converts it to RGBA before it
/// compares that size with the item's `ispe`: a 12-megapixel picture behind an `ispe` of 64×48 costs the full
/// decode. This reader takes `pic_width_in_luma_samples` and `pic_height_in_luma_samples` from each SPS
/// (ITU-T H.265 7.3.2.2) so that they are checked before libheif decodes. Bounds-checked; reads nothing else.
struct HEVCCodedSizes {
    /// The declared sizes, one per SPS, in file order.
    private(set) var sizes: [(width: Int, height: Int)] = []

    /// Reads the SPS of every `hvcC` box in `ipco`.
    ///
    /// - Throws: `ImageDecoders.HEIF.Error.invalidData` when an `hvcC` box or its SPS can't be read.
    init(bytes: UnsafeRawBufferPointer) throws(ImageDecoders.HEIF.Error) {
        guard let iprp = HEIFBoxReader.metaChildren(of: bytes).first(where: { $0.type == "iprp" }) else { return }
        var reader = HEIFBoxReader(bytes: bytes, range: iprp.payload)
        for ipco in reader.boxes() where ipco.type == "ipco" {
            var properties = HEIFBoxReader(bytes: bytes, range: ipco.payload)
            for hvcC in properties.boxes() where hvcC.type == "hvcC" {
                for sps in Self.parameterSets(bytes, hvcC: hvcC.payload) {
                    guard let size = Self.pictureSize(sps) else {
                        throw .invalidData(message: "an HEVC sequence parameter set can't be read")
                    }
                    sizes.append(size)
                }
            }
        }
    }

    /// The SPS NAL units (type 33) of an `hvcC` payload (ISO/IEC 14496-15 8.3.3), emulation prevention removed.
    private static func parameterSets(_ bytes: UnsafeRawBufferPointer, hvcC: Range<Int>) -> [[UInt8]] {
        guard let arrays = bytes.uint(at: hvcC.lowerBound + 22, size: 1, within: hvcC) else { return [] }
        var at = hvcC.lowerBound + 23
        var result: [[UInt8]] = []
        for _ in 0..<arrays {
            guard let type = bytes.uint(at: at, size: 1, within: hvcC),
                let count = bytes.uint(at: at + 1, size: 2, within: hvcC)
            else { return result }
            at += 3
            for _ in 0..<count {
                guard let length = bytes.uint(at: at, size: 2, within: hvcC), at + 2 + Int(length) <= hvcC.upperBound
                else { return result }
                if type & 0x3F == 33 {
                    var rbsp: [UInt8] = []
                    var zeros = 0
                    for byte in bytes[(at + 2)..<(at + 2 + Int(length))] {
                        if zeros >= 2 && byte == 3 {
                            zeros = 0
                            continue
                        }
                        zeros = byte == 0 ? zeros + 1 : 0
                        rbsp.append(byte)
                    }
                    result.append(rbsp)
                }
                at += 2 + Int(length)
            }
        }
        return result
    }

    /// `pic_width_in_luma_samples` and `pic_height_in_luma_samples` of an SPS NAL unit (with its 2-byte header).
    private static func pictureSize(_ sps: [UInt8]) -> (width: Int, height: Int)? {
        var bits = BitReader(bytes: sps, position: 16)  // The NAL unit header.
        guard bits.skip(4), let maxSubLayersMinus1 = bits.read(3), bits.skip(1) else { return nil }
        // profile_tier_level(1, sps_max_sub_layers_minus1): the general profile and level (96 bits), then per
        // sub-layer two presence flags, padding to 8 sub-layers, and the present profiles (88) and levels (8).
        guard bits.skip(96) else { return nil }
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<maxSubLayersMinus1 {
            guard let profile = bits.read(1), let level = bits.read(1) else { return nil }
            present.append((profile == 1, level == 1))
        }
        if maxSubLayersMinus1 > 0 {
            guard bits.skip(2 * (8 - Int(maxSubLayersMinus1))) else { return nil }
        }
        for layer in present {
            guard bits.skip(layer.profile ? 88 : 0), bits.skip(layer.level ? 8 : 0) else { return nil }
        }
        guard bits.readExpGolomb() != nil, let chroma = bits.readExpGolomb() else { return nil }
        if chroma == 3 {
            guard bits.skip(1) else { return nil }
        }
        guard let width = bits.readExpGolomb(), let height = bits.readExpGolomb() else { return nil }
        return (Int(width), Int(height))
    }
}

/// Reads bits most significant first from a byte array; every read fails, rather than traps, past the end.
private struct BitReader {
    let bytes: [UInt8]
    var position: Int

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, position + count <= bytes.count * 8 else { return false }
        position += count
        return true
    }

    /// `count` bits (at most 32) as an unsigned value.
    mutating func read(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value: UInt64 = 0
        for _ in 0..<count {
            value = value << 1 | UInt64(bytes[position / 8] >> (7 - UInt8(position % 8)) & 1)
            position += 1
        }
        return value
    }

    /// An unsigned Exp-Golomb code, ue(v), of at most 32 leading zeros.
    mutating func readExpGolomb() -> UInt64? {
        var zeros = 0
        while true {
            guard let bit = read(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            guard zeros <= 32 else { return nil }
        }
        guard let rest = read(zeros) else { return nil }
        return (UInt64(1) << zeros) - 1 + rest
    }
}
