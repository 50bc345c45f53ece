import Foundation
import NukeCore

/// Deterministic inputs: a photo-like image (gradients, waves and fine noise, so that PNG and WebP don't
/// compress it unrealistically well) and an SVG with a few hundred shapes.
enum TestImages {
    static func photo(width: Int, height: Int) throws -> PlatformImage {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return try PlatformImage(width: width, height: height, isOpaque: true) { pixels in
            var offset = 0
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let noise = Int(state >> 59) - 16
                    let wave = (sin(Double(x) / 37) + cos(Double(y) / 23) + sin(Double(x + y) / 11)) * 25
                    pixels[offset] = UInt8(clamping: x * 220 / width + Int(wave) + noise)
                    pixels[offset + 1] = UInt8(clamping: y * 200 / height - Int(wave) + 40 + noise)
                    pixels[offset + 2] = UInt8(clamping: 128 + Int(wave * 1.5) - noise)
                    pixels[offset + 3] = 255
                    offset += 4
                }
            }
        }
    }

    static func svg(width: Int, height: Int) -> Data {
        var shapes = ""
        var state: UInt64 = 42
        func next(_ limit: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % limit
        }
        for index in 0..<300 {
            let color = "rgb(\(next(256)),\(next(256)),\(next(256)))"
            if index % 3 == 0 {
                shapes +=
                    "<circle cx=\"\(next(width))\" cy=\"\(next(height))\" r=\"\(5 + next(80))\" "
                    + "fill=\"url(#g\(index % 4))\" opacity=\"0.8\"/>"
            } else if index % 3 == 1 {
                shapes +=
                    "<rect x=\"\(next(width))\" y=\"\(next(height))\" width=\"\(10 + next(120))\" "
                    + "height=\"\(10 + next(90))\" fill=\"\(color)\" stroke=\"black\" stroke-width=\"2\"/>"
            } else {
                shapes +=
                    "<path d=\"M\(next(width)) \(next(height)) Q\(next(width)) \(next(height)) "
                    + "\(next(width)) \(next(height)) T\(next(width)) \(next(height))\" fill=\"none\" "
                    + "stroke=\"\(color)\" stroke-width=\"\(1 + next(6))\"/>"
            }
        }
        var gradients = ""
        for index in 0..<4 {
            gradients +=
                "<radialGradient id=\"g\(index)\"><stop offset=\"0\" stop-color=\"rgb(\(next(256)),"
                + "\(next(256)),\(next(256)))\"/><stop offset=\"1\" stop-color=\"rgb(\(next(256)),"
                + "\(next(256)),\(next(256)))\"/></radialGradient>"
        }
        let document = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)"><defs>\(gradients)</defs>\
            <rect width="100%" height="100%" fill="#eee"/>\(shapes)</svg>
            """
        return Data(document.utf8)
    }
}
