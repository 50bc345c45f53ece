import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Testing

@testable import NukeCore

@Suite struct AssetTypeTests {
    // MARK: - Identity

    @Test func predefinedRawValuesMatchNuke() {
        let expected: [(AssetType, String)] = [
            (.png, "public.png"), (.jpeg, "public.jpeg"), (.gif, "com.compuserve.gif"),
            (.webp, "org.webmproject.webp"), (.svg, "public.svg-image"), (.avif, "public.avif"),
            (.heic, "public.heic"), (.heif, "public.heif"), (.bmp, "com.microsoft.bmp"),
            (.ico, "com.microsoft.ico"), (.tiff, "public.tiff"), (.mp4, "public.mpeg-4"),
            (.jpeg2000, "public.jpeg-2000"), (.jxl, "public.jpeg-xl"), (.m4v, "com.apple.m4v-video"),
            (.mov, "com.apple.quicktime-movie"),
        ]
        for (type, rawValue) in expected {
            #expect(type.rawValue == rawValue)
            #expect(type.description == rawValue)
            #expect(AssetType(rawValue: rawValue) == type)
        }
        #expect(Set(AssetType.knownTypes).count == AssetType.knownTypes.count)
    }

    @Test func customTypesFromStringLiterals() {
        let custom: AssetType = "com.example.custom-image"
        #expect(custom.rawValue == "com.example.custom-image")
        #expect(custom == AssetType(rawValue: "com.example.custom-image"))
        #expect(custom != .jpeg)
        #expect(AssetType.jxl.rawValue == "public.jpeg-xl")
        #expect(custom.mimeType == nil)
        #expect("\(custom)" == "com.example.custom-image")
    }

    // MARK: - Magic Numbers

    @Test func png() {
        #expect(AssetType(Data(Fixtures.png)) == .png)
        #expect(AssetType(Data(Fixtures.png + [0x00, 0x00, 0x00, 0x0D] + Bytes.ascii("IHDR"))) == .png)
    }

    @Test func jpeg() {
        #expect(AssetType(Data(Fixtures.jpeg)) == .jpeg)
        #expect(AssetType(Data([0xFF, 0xD8, 0xFF, 0xDB])) == .jpeg)
    }

    @Test func gif() {
        #expect(AssetType(Data(Bytes.ascii("GIF87a") + [0x01, 0x00, 0x01, 0x00])) == .gif)
        #expect(AssetType(Data(Fixtures.gif)) == .gif)
        #expect(AssetType(Data(Bytes.ascii("GIF88a"))) == nil)
    }

    @Test func webp() {
        #expect(AssetType(Data(Fixtures.webp)) == .webp)
        #expect(AssetType(Data(Bytes.ascii("RIFF") + Bytes.le32(36) + Bytes.ascii("WAVEfmt "))) == nil)
    }

    @Test func tiff() {
        #expect(AssetType(Data(Fixtures.tiffLittleEndian)) == .tiff)
        #expect(AssetType(Data(Fixtures.tiffBigEndian)) == .tiff)
        #expect(AssetType(Data([0x49, 0x49, 0x00, 0x2A])) == nil)
    }

    @Test func ico() {
        #expect(AssetType(Data(Fixtures.ico)) == .ico)
        #expect(AssetType(Data([0x00, 0x00, 0x01, 0x00, 0x01, 0x00])) == .ico)
        // As in Nuke, the 4-byte prefix is enough.
        #expect(AssetType(Data(Fixtures.ico.prefix(3))) == nil)
        #expect(AssetType(Data(Fixtures.ico.prefix(4))) == .ico)
        // A 256-byte `ftyp` box starts with the same bytes; it is a video, not an icon.
        #expect(AssetType(Data(Bytes.be32(256) + Bytes.ascii("ftypisom") + Bytes.be32(0))) == .mp4)
        // A cursor (type 2) is not an icon.
        #expect(AssetType(Data([0x00, 0x00, 0x02, 0x00, 0x01, 0x00] + [UInt8](repeating: 0, count: 16))) == nil)
    }

    @Test(arguments: [12, 40, 52, 56, 64, 108, 124] as [UInt32])
    func bmp(dibHeaderSize: UInt32) {
        #expect(AssetType(Data(Fixtures.bmp(dibHeaderSize: dibHeaderSize))) == .bmp)
    }

    @Test func bmpIsDetectedFromItsTwoByteSignature() {
        // As in Nuke: `BM` is enough, whatever follows.
        #expect(AssetType(Data([0x42])) == nil)
        #expect(AssetType(Data([0x42, 0x4D])) == .bmp)
        #expect(AssetType(Data([0x42, 0x4D, 0x8A, 0x10])) == .bmp)
        #expect(AssetType(Data(Fixtures.bmp(dibHeaderSize: 40).prefix(25))) == .bmp)
    }

    // MARK: - JPEG 2000 and JPEG XL

    @Test func jpeg2000() {
        // The JP2 signature box: all 12 bytes are needed.
        let jp2 = Data([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        #expect(AssetType(jp2.prefix(4)) == nil)
        #expect(AssetType(jp2.prefix(11)) == nil)
        #expect(AssetType(jp2) == .jpeg2000)
        // A raw codestream: SOC and SIZ markers.
        let codestream = Data([0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x2F])
        #expect(AssetType(codestream.prefix(3)) == nil)
        #expect(AssetType(codestream.prefix(4)) == .jpeg2000)
        #expect(AssetType(codestream) == .jpeg2000)
    }

    @Test func jpegXL() {
        // The container signature box: all 12 bytes are needed.
        let container = Data([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
        #expect(AssetType(container.prefix(4)) == nil)
        #expect(AssetType(container.prefix(11)) == nil)
        #expect(AssetType(container) == .jxl)
        // A bare codestream: its two-byte signature.
        let codestream = Data([0xFF, 0x0A, 0x00, 0x50])
        #expect(AssetType(codestream.prefix(1)) == nil)
        #expect(AssetType(codestream.prefix(2)) == .jxl)
        #expect(AssetType(codestream) == .jxl)
    }

    // MARK: - ISO Base Media File Format

    @Test func isoBaseMediaMajorBrands() {
        #expect(AssetType(Data(Bytes.ftyp(major: "avif", compatible: ["mif1", "miaf", "MA1B"]))) == .avif)
        #expect(AssetType(Data(Bytes.ftyp(major: "avis", compatible: ["msf1", "iso8"]))) == .avif)
        #expect(AssetType(Data(Bytes.ftyp(major: "heic", compatible: ["mif1", "heic"]))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "heix", compatible: []))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "hevc", compatible: ["msf1"]))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "isom", compatible: ["iso2", "avc1", "mp41"]))) == .mp4)
        #expect(AssetType(Data(Bytes.ftyp(major: "mp42", compatible: ["isom"]))) == .mp4)
        #expect(AssetType(Data(Bytes.ftyp(major: "qt  ", compatible: ["qt  "]))) == .mov)
        #expect(AssetType(Data(Bytes.ftyp(major: "crx ", compatible: []))) == nil)
    }

    @Test(arguments: ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"])
    func heicBrands(brand: String) {
        #expect(AssetType(Data(Bytes.ftyp(major: brand, compatible: []))) == .heic)
        // 12 bytes (up to the major brand) are enough, as in Nuke.
        #expect(AssetType(Data(Bytes.ftyp(major: brand, compatible: []).prefix(12))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: brand, compatible: []).prefix(11))) == nil)
    }

    @Test(arguments: ["isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "mmp4", "avc1", "dash"])
    func mp4Brands(brand: String) {
        #expect(AssetType(Data(Bytes.ftyp(major: brand, compatible: []))) == .mp4)
    }

    @Test(arguments: ["M4V ", "M4VH", "M4VP"])
    func m4vBrands(brand: String) {
        #expect(AssetType(Data(Bytes.ftyp(major: brand, compatible: ["isom", "mp42"]))) == .m4v)
    }

    @Test(arguments: ["mif1", "msf1", "M4A ", "3gp4"])
    func unsupportedMajorBrandsAloneAreUnknown(brand: String) {
        // Bare HEIF says nothing about the codec; MPEG-4 audio and 3GPP are not formats we decode.
        #expect(AssetType(Data(Bytes.ftyp(major: brand, compatible: []))) == nil)
    }

    @Test func genericHEIFBrandsAloneAreTypedByTheirItems() {
        // A primary item coded as HEVC or AV1 names the codec the brands don't
        #expect(AssetType(Data(Bytes.heif(primary: 1, items: [(1, "hvc1"), (2, "Exif")]))) == .heic)
        #expect(AssetType(Data(Bytes.heif(primary: 1, items: [(1, "av01")]))) == .avif)
        // A grid primary item: the first coded item (its tiles)
        #expect(AssetType(Data(Bytes.heif(primary: 9, items: [(9, "grid"), (1, "hvc1"), (2, "hvc1")]))) == .heic)
        // 32-bit item IDs (pitm and infe version 3, iinf version 1)
        #expect(AssetType(Data(Bytes.heif(primary: 70_000, items: [(70_000, "av01")], wide: true))) == .avif)
        // The primary item's codec wins over another item's
        #expect(AssetType(Data(Bytes.heif(primary: 2, items: [(1, "hvc1"), (2, "av01")]))) == .avif)
        // No coded item, or a codec we don't type (JPEG items), is unknown
        #expect(AssetType(Data(Bytes.heif(primary: 1, items: [(1, "jpeg")]))) == nil)
        #expect(AssetType(Data(Bytes.heif(primary: 1, items: []))) == nil)
    }

    @Test func damagedHEIFItemBoxesAreUnknownNotACrash() {
        let whole = Bytes.heif(primary: 1, items: [(1, "hvc1")])
        // Every prefix: cut boxes are not read (a cut inside the item type leaves no codec)
        for length in 0..<whole.count {
            let type = AssetType(Data(whole.prefix(length)))
            #expect(type == nil || type == .heic)
        }
        #expect(AssetType(Data(whole.prefix(whole.count - 1))) == nil)
        // Every single byte of the boxes after `ftyp` set to 0x00, 0x01 and 0xFF (sizes of 0, 1 and too large)
        let ftypSize = Bytes.ftyp(major: "mif1", compatible: ["miaf"]).count
        for index in ftypSize..<whole.count {
            for value: UInt8 in [0x00, 0x01, 0xFF] {
                var damaged = whole
                damaged[index] = value
                let type = AssetType(Data(damaged))
                #expect(type == nil || type == .heic || type == .avif)
            }
        }
    }

    @Test func isoBaseMediaCompatibleBrandsRefineGenericMajorBrand() {
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["avif"]))) == .avif)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["miaf", "heic"]))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "msf1", compatible: ["iso8", "hevc"]))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["heic", "avif"]))) == .avif)
        #expect(AssetType(Data(Bytes.ftyp(major: "msf1", compatible: ["mif1", "heic", "hevc"]))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "msf1", compatible: ["avis", "av01"]))) == .avif)
        #expect(AssetType(Data(Bytes.ftyp(major: "msf1", compatible: ["mif1", "MiPr"]))) == nil)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["miaf"]))) == nil)
        // A specific major brand wins over compatible brands.
        #expect(AssetType(Data(Bytes.ftyp(major: "heic", compatible: ["avif"]))) == .heic)
        #expect(AssetType(Data(Bytes.ftyp(major: "iso8", compatible: ["mif1"]))) == .mp4)
        #expect(AssetType(Data(Bytes.ftyp(major: "mp42", compatible: ["isom", "avif"]))) == .mp4)
        #expect(AssetType(Data(Bytes.ftyp(major: "qt  ", compatible: ["isom"]))) == .mov)
    }

    @Test func isoBaseMediaBrandsAreBoundedByTheBox() {
        // The "avif" brand follows the `ftyp` box (it is the start of the next box), so it does not count.
        let box = Bytes.ftyp(major: "mif1", compatible: [])
        #expect(AssetType(Data(box + Bytes.ascii("avif") + Bytes.le32(0))) == nil)
        // Size 0: the box extends to the end of the data.
        var toEnd = Bytes.ftyp(major: "mif1", compatible: ["avif"])
        toEnd.replaceSubrange(0..<4, with: Bytes.be32(0))
        #expect(AssetType(Data(toEnd)) == .avif)
        // Size 1: a 64-bit size follows the box type and shifts the payload.
        let large =
            Bytes.be32(1) + Bytes.ascii("ftyp") + Bytes.be64(32) + Bytes.ascii("mif1") + Bytes.be32(0)
            + Bytes.ascii("miaf") + Bytes.ascii("heic")
        #expect(AssetType(Data(large)) == .heic)
        // A box that is too small to hold the major brand and the minor version.
        #expect(AssetType(Data(Bytes.be32(12) + Bytes.ascii("ftypavif") + Bytes.be32(0))) == nil)
        // Truncated data with a larger declared size still yields the brands that are present.
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["avif"]).prefix(12))) == nil)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["avif"]).prefix(19))) == nil)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["avif"]).prefix(20))) == .avif)
        #expect(AssetType(Data(Bytes.ftyp(major: "avif", compatible: []).prefix(11))) == nil)
    }

    @Test func isoBaseMediaWithManyCompatibleBrandsIsBounded() {
        let filler = [String](repeating: "miaf", count: 500)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: filler + ["avif"]))) == nil)
        #expect(AssetType(Data(Bytes.ftyp(major: "mif1", compatible: ["avif"] + filler))) == .avif)
    }

    // MARK: - SVG

    @Test(arguments: [
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></svg>",
        "<svg>",
        "<svg/>",
        "<svg\n  viewBox=\"0 0 1 1\"/>",
        "<svg\tversion=\"1.1\">",
        "  \r\n\t<svg>",
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><svg>",
        "<!-- <html> --><svg>",
        "<!doctype svg><svg>",
        "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
            + "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n<svg version=\"1.1\">",
        "<?xml-stylesheet href=\"a.css\"?><svg>",
    ])
    func svg(text: String) {
        #expect(AssetType(Data(text.utf8)) == .svg)
    }

    @Test func svgWithBOMPrologCommentsAndDoctype() {
        let text = """
            <?xml version="1.0" encoding="utf-8" standalone="no"?>
            <!-- Generator: Adobe Illustrator 24.0.0, SVG Export Plug-In -->
            <!-- Another comment with <svg> inside and -- dashes -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
                <!ENTITY ns_svg "http://www.w3.org/2000/svg">
                <!ENTITY quoted "a > b ] c">
            ]>
            <!-- after the doctype -->
            <svg version="1.1" xmlns="&ns_svg;" width="24" height="24"/>
            """
        #expect(AssetType(Data([0xEF, 0xBB, 0xBF] + Bytes.ascii(text))) == .svg)
        #expect(AssetType(Data(Bytes.ascii(text))) == .svg)
    }

    @Test(arguments: [
        "<svgfoo>",
        "<svg",
        "<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\">",
        "<SVG>",
        "svg",
        "<!DOCTYPE html><html><body><svg></svg></body></html>",
        "<html><svg></svg></html>",
        "<!DOCTYPE html>\n<svg>",
        "<!DOCTYPE svgfoo><svg>",
        "<!DOCTYPEsvg><svg>",
        "<!DOCTYPE svg",
        "<!DOCTYPE svg [ <!ENTITY a \"b\"> <svg>",
        "<!-- unterminated comment <svg>",
        "<?xml version=\"1.0\" <svg>",
        "Hello <svg>",
        "<p><svg>",
        "{\"svg\": \"<svg>\"}",
    ])
    func notSVG(text: String) {
        #expect(AssetType(Data(text.utf8)) == nil)
    }

    @Test func svgMustStartWithinTheFirst4KB() {
        let limit = 4096
        let tag = Bytes.ascii("<svg>")
        // `<svg>` ends exactly at the limit.
        #expect(AssetType(Data(Bytes.ascii(String(repeating: " ", count: limit - tag.count)) + tag)) == .svg)
        // The delimiter after `<svg` lies beyond the limit.
        #expect(AssetType(Data(Bytes.ascii(String(repeating: " ", count: limit - tag.count + 1)) + tag)) == nil)
        // Only junk (whitespace, a long comment) before the tag within the first 4 KB.
        #expect(AssetType(Data(Bytes.ascii(String(repeating: "\n", count: limit)) + tag)) == nil)
        let comment = "<!--" + String(repeating: "x", count: limit) + "-->"
        #expect(AssetType(Data(Bytes.ascii(comment) + tag)) == nil)
        let junk = String(repeating: "junk ", count: 1000)
        #expect(AssetType(Data(Bytes.ascii(junk + "<svg>"))) == nil)
    }

    @Test func hugeInputsAreCheap() {
        let whitespace = Data(repeating: 0x20, count: 8 * 1024 * 1024)
        #expect(AssetType(whitespace + Data("<svg>".utf8)) == nil)
        #expect(AssetType(Data(Fixtures.png) + whitespace) == .png)
    }

    // MARK: - Robustness

    @Test func emptyAndTinyInputs() {
        #expect(AssetType(Data()) == nil)
        for byte in UInt8.min...UInt8.max {
            #expect(AssetType(Data([byte])) == nil)
        }
    }

    @Test func truncatedHeadersAreRejected() {
        let headers: [(bytes: [UInt8], minimumLength: Int)] = [
            (Fixtures.png, 8), (Fixtures.jpeg, 3), (Fixtures.gif, 6), (Fixtures.webp, 12),
            (Fixtures.tiffLittleEndian, 4), (Fixtures.tiffBigEndian, 4), (Fixtures.ico, 4),
            (Fixtures.bmp(dibHeaderSize: 40), 2), (Bytes.ftyp(major: "avif", compatible: ["mif1"]), 12),
            ([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], 12),
            ([0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x2F], 4), ([0xFF, 0x0A, 0x00, 0x50], 2),
            ([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], 12),
            (Bytes.ascii("<svg>"), 5),
        ]
        for (bytes, minimumLength) in headers {
            #expect(AssetType(Data(bytes.prefix(minimumLength))) != nil)
            for length in 0..<minimumLength {
                #expect(AssetType(Data(bytes.prefix(length))) == nil, "\(bytes.prefix(length))")
            }
        }
    }

    @Test func dataSlicesWithNonZeroStartIndex() {
        let junk: [UInt8] = [0x00, 0x13, 0x37, 0x42, 0x42]
        let cases: [([UInt8], AssetType)] = [
            (Fixtures.png, .png), (Fixtures.jpeg, .jpeg), (Fixtures.gif, .gif), (Fixtures.webp, .webp),
            (Fixtures.tiffBigEndian, .tiff), (Fixtures.ico, .ico), (Fixtures.bmp(dibHeaderSize: 124), .bmp),
            (Bytes.ftyp(major: "mif1", compatible: ["avif"]), .avif),
            (Bytes.ftyp(major: "mif1", compatible: ["heic"]), .heic),
            (Bytes.ascii("<?xml version=\"1.0\"?>\n<svg/>"), .svg),
        ]
        for (bytes, type) in cases {
            let data = Data(junk + bytes + junk)
            let slice = data[junk.count..<(junk.count + bytes.count)]
            #expect(slice.startIndex == junk.count)
            #expect(AssetType(slice) == type)
            #expect(AssetType(data.dropFirst(junk.count)) == type)
        }
    }

    @Test func slicesAreNotReadPastTheirEnd() {
        // The bytes following the slice would complete the signatures; they must not be considered.
        let png = Data([0x00, 0x00] + Fixtures.png)
        #expect(AssetType(png[2..<6]) == nil)
        let svg = Data(Bytes.ascii("  <svg>"))
        #expect(AssetType(svg[2..<6]) == nil)
        let bmp = Data([0x00] + Fixtures.bmp(dibHeaderSize: 40))
        #expect(AssetType(bmp[1..<2]) == nil)
        #expect(AssetType(bmp[1..<3]) == .bmp)
        let box = Data([0xAA] + Bytes.ftyp(major: "mif1", compatible: ["miaf", "avif"]))
        #expect(AssetType(box[1..<21]) == nil)
        #expect(AssetType(box[1..<25]) == .avif)
    }

    @Test func fuzzRandomBytesNeverCrash() {
        var generator = SplitMix64(seed: 0x5EED_0F_A55E7)
        for _ in 0..<10_000 {
            let length = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let type = AssetType(Data(bytes))
            // A slice with a non-zero start index must yield the same answer.
            #expect(AssetType(Data([0xFF] + bytes).dropFirst()) == type)
        }
    }

    @Test func fuzzMutatedHeadersNeverCrash() {
        var generator = SplitMix64(seed: 42)
        let seeds: [[UInt8]] = [
            Fixtures.png, Fixtures.jpeg, Fixtures.gif, Fixtures.webp, Fixtures.tiffLittleEndian, Fixtures.ico,
            Fixtures.bmp(dibHeaderSize: 40), Bytes.ftyp(major: "mif1", compatible: ["miaf", "avif", "heic"]),
            Bytes.be32(1) + Bytes.ascii("ftyp") + Bytes.be64(40) + Bytes.ascii("mif1") + Bytes.be32(0)
                + Bytes.ascii("avif"),
            Bytes.ascii("\u{FEFF}<?xml version=\"1.0\"?><!-- c --><!DOCTYPE svg [ <!ENTITY a \"]>\"> ]><svg>"),
        ]
        for _ in 0..<10_000 {
            var bytes = seeds.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: .min ... .max, using: &generator)
            }
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            let type = AssetType(Data(bytes))
            #expect(AssetType(Data([0x00, 0x01] + bytes).dropFirst(2)) == type)
        }
    }

    // MARK: - MIME Types

    @Test func mimeTypes() {
        let expected: [AssetType: String] = [
            .png: "image/png", .jpeg: "image/jpeg", .gif: "image/gif", .webp: "image/webp",
            .svg: "image/svg+xml", .avif: "image/avif", .heic: "image/heic", .heif: "image/heif",
            .bmp: "image/bmp", .ico: "image/vnd.microsoft.icon", .tiff: "image/tiff", .mp4: "video/mp4",
            .jpeg2000: "image/jp2", .jxl: "image/jxl", .m4v: "video/x-m4v", .mov: "video/quicktime",
        ]
        #expect(expected.count == AssetType.knownTypes.count)
        for type in AssetType.knownTypes {
            #expect(type.mimeType == expected[type])
        }
    }

    @Test func mimeTypeRoundTrips() throws {
        for type in AssetType.knownTypes {
            let mimeType = try #require(type.mimeType)
            #expect(AssetType(mimeType: mimeType) == type)
            #expect(AssetType(mimeType: mimeType.uppercased()) == type)
            #expect(AssetType(mimeType: " \(mimeType) ; q=0.9") == type)
        }
    }

    @Test(arguments: [
        ("image/svg+xml; charset=utf-8", AssetType.svg),
        ("IMAGE/SVG+XML;CHARSET=UTF-8", .svg),
        ("Image/Png", .png),
        ("  image/jpeg  ", .jpeg),
        ("\timage/gif", .gif),
        ("image/webp;", .webp),
        ("image/jpg", .jpeg),
        ("image/pjpeg", .jpeg),
        ("image/x-png", .png),
        ("image/x-icon", .ico),
        ("image/vnd.microsoft.icon", .ico),
        ("image/ico", .ico),
        ("image/x-ms-bmp", .bmp),
        ("image/x-bmp", .bmp),
        ("image/x-tiff", .tiff),
        ("image/heic-sequence", .heic),
        ("image/heif-sequence", .heif),
        ("image/jpx", .jpeg2000),
        ("video/m4v", .m4v),
        ("video/mp4; codecs=\"avc1.42E01E\"", .mp4),
    ])
    func parsesMIMEType(mimeType: String, type: AssetType) {
        #expect(AssetType(mimeType: mimeType) == type)
    }

    @Test(arguments: [
        "", " ", ";", "; image/png", "image", "image/", "text/html", "text/plain; charset=utf-8",
        "application/octet-stream", "image/png2", "image/ png", "image/svg", "png", "public.png",
    ])
    func rejectsUnknownMIMEType(mimeType: String) {
        #expect(AssetType(mimeType: mimeType) == nil)
    }
}

// MARK: - Helpers

extension AssetTypeTests {
    /// Byte-building helpers, namespaced so that they cannot collide with other test files.
    fileprivate enum Bytes {
        static func ascii(_ string: String) -> [UInt8] {
            Array(string.utf8)
        }

        static func le16(_ value: UInt16) -> [UInt8] {
            withUnsafeBytes(of: value.littleEndian, Array.init)
        }

        static func le32(_ value: UInt32) -> [UInt8] {
            withUnsafeBytes(of: value.littleEndian, Array.init)
        }

        static func be32(_ value: UInt32) -> [UInt8] {
            withUnsafeBytes(of: value.bigEndian, Array.init)
        }

        static func be64(_ value: UInt64) -> [UInt8] {
            withUnsafeBytes(of: value.bigEndian, Array.init)
        }

        /// An ISO base media `ftyp` box with the given brands, sized to fit exactly.
        static func ftyp(major: String, compatible: [String]) -> [UInt8] {
            let payload = ascii(major) + be32(0) + compatible.flatMap(ascii)
            return be32(UInt32(8 + payload.count)) + ascii("ftyp") + payload
        }

        static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            be32(UInt32(8 + payload.count)) + ascii(type) + payload
        }

        /// A HEIF file with only generic brands: `ftyp` (`mif1`, `miaf`), then `meta` with `hdlr`, `pitm` and
        /// `iinf` (one `infe` per item: version 2 with 16-bit IDs, or version 3 with 32-bit IDs when `wide`).
        static func heif(primary: UInt32, items: [(id: UInt32, type: String)], wide: Bool = false) -> [UInt8] {
            let version: [UInt8] = wide ? [1, 0, 0, 0] : [0, 0, 0, 0]
            let id = { (value: UInt32) -> [UInt8] in wide ? be32(value) : Array(be32(value).suffix(2)) }
            let entries = items.flatMap { item in
                box("infe", [wide ? 3 : 2, 0, 0, 0] + id(item.id) + [0, 0] + ascii(item.type) + [0])
            }
            let count = wide ? be32(UInt32(items.count)) : Array(be32(UInt32(items.count)).suffix(2))
            let meta = box(
                "meta",
                [0, 0, 0, 0] + box("hdlr", [0, 0, 0, 0] + be32(0) + ascii("pict") + [UInt8](repeating: 0, count: 13))
                    + box("pitm", version + id(primary)) + box("iinf", version + count + entries))
            return ftyp(major: "mif1", compatible: ["miaf"]) + meta
        }
    }

    fileprivate enum Fixtures {
        static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Bytes.ascii("JFIF") + [0x00]
        static let gif: [UInt8] = Bytes.ascii("GIF89a") + Bytes.le16(1) + Bytes.le16(1) + [0x80, 0x00, 0x00]
        static let webp: [UInt8] = Bytes.ascii("RIFF") + Bytes.le32(26) + Bytes.ascii("WEBPVP8L") + Bytes.le32(14)
        static let tiffLittleEndian: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Bytes.le32(8)
        static let tiffBigEndian: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + Bytes.be32(8)
        /// An ICONDIR with one 16x16 ICONDIRENTRY.
        static let ico: [UInt8] =
            [0x00, 0x00, 0x01, 0x00] + Bytes.le16(1) + [16, 16, 0, 0] + Bytes.le16(1) + Bytes.le16(32)
            + Bytes.le32(1128) + Bytes.le32(22)

        /// A BITMAPFILEHEADER followed by the first 12 bytes of a DIB header of the given size.
        static func bmp(dibHeaderSize: UInt32) -> [UInt8] {
            let fileHeader = Bytes.ascii("BM") + Bytes.le32(70) + Bytes.le32(0) + Bytes.le32(14 + dibHeaderSize)
            return fileHeader + Bytes.le32(dibHeaderSize) + Bytes.le32(1) + Bytes.le32(1)
        }
    }

    /// A deterministic generator so that fuzzing failures are reproducible.
    fileprivate struct SplitMix64: RandomNumberGenerator {
        var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
