import ColorLCMS
import DecoderAVIF
import DecoderJPEG
import DecoderPNG
import DecoderWebP
import Foundation
import NukeCore
import Testing

/// A committed fixture; `Fixtures/make-fixtures.py` says how each was made.
func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: fixtureURL(name))
}

func fixtureURL(_ name: String) throws -> URL {
    let base = try #require(Bundle.module.resourceURL)
    return base.appendingPathComponent("Fixtures").appendingPathComponent(name)
}

/// A pipeline over the codecs with `converter`, no memory cache, reading `file:` URLs itself.
func makePipeline(
    converter: (any ColorConverting)?, policy: ImagePipeline.ColorProfilePolicy = .convertToSRGB
) -> ImagePipeline {
    let registry = ImageDecoderRegistry()
    ImageDecoders.PNG.register(in: registry)
    ImageDecoders.JPEG.register(in: registry)
    ImageDecoders.WebP.register(in: registry)
    ImageDecoders.AVIF.register(in: registry)
    return ImagePipeline {
        $0.makeImageDecoder = { registry.decoder(for: $0) }
        $0.imageCache = nil
        $0.colorConverter = converter
        $0.colorProfilePolicy = policy
    }
}

/// lcms2's own `transicc` (Debian's liblcms2-utils) converting the opaque pixels of `image` from `profile` to
/// sRGB with the relative colorimetric intent, rounded to 8 bits: RGBA, alpha copied.
func transiccReference(of image: PlatformImage, profile: URL) throws -> [UInt8] {
    let tool = URL(fileURLWithPath: "/usr/bin/transicc")
    try #require(
        FileManager.default.isExecutableFile(atPath: tool.path),
        "transicc not found: install Debian's liblcms2-utils (scripts/setup.sh)")
    var input = ""
    for y in 0..<image.height {
        for x in 0..<image.width {
            let pixel = try #require(image.pixel(x: x, y: y))
            input += "\(pixel.r) \(pixel.g) \(pixel.b)\n"
        }
    }
    let process = Process()
    process.executableURL = tool
    process.arguments = ["-i", profile.path, "-o", "*sRGB", "-t1", "-n", "-s"]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    let bytes = Data(input.utf8)
    let writer = Thread {
        stdin.fileHandleForWriting.write(bytes)
        try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").filter {
        $0.split(separator: " ").count == 3 && Double($0.split(separator: " ")[0]) != nil
    }
    try #require(lines.count == image.width * image.height, "transicc gave \(lines.count) lines")
    var result: [UInt8] = []
    for line in lines {
        result += line.split(separator: " ").map { UInt8(max(0, min(255, (Double($0) ?? 0).rounded()))) }
        result.append(255)
    }
    return result
}

/// The mean absolute difference of the colour channels of two tightly packed RGBA buffers.
func meanColorDifference(_ lhs: [UInt8], _ rhs: [UInt8]) -> Double {
    var total = 0
    var count = 0
    for index in 0..<min(lhs.count, rhs.count) where index % 4 != 3 {
        total += abs(Int(lhs[index]) - Int(rhs[index]))
        count += 1
    }
    return count == 0 ? .infinity : Double(total) / Double(count)
}

/// The largest absolute difference of the colour channels of two tightly packed RGBA buffers.
func maximumColorDifference(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    zip(lhs, rhs).enumerated().filter { $0.offset % 4 != 3 }.map { abs(Int($0.element.0) - Int($0.element.1)) }
        .max() ?? 0
}

/// An image with straight `rgba` pixels (premultiplied on the way in).
func makeImage(width: Int, height: Int, rgba: [UInt8], opaque: Bool) throws -> PlatformImage {
    var image = try PlatformImage(width: width, height: height, rgba: rgba, isPremultiplied: false)
    image.isOpaque = opaque
    return image
}
