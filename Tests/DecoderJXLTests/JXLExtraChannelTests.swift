internal import CJXL
import DecoderJXL
import Foundation
import NukeCore
import Testing

@Suite("JPEG XL extra channels")
struct JXLExtraChannelTests {
    @Test("a file with a few extra channels decodes; one with more than 8 is refused before any pixel is decoded")
    func extraChannelLimit() throws {
        let few = try ExtraChannelFile.make(extraChannels: 2)
        let many = try ExtraChannelFile.make(extraChannels: 9)

        let image = try ImageDecoders.JXL().decode(few).image
        let error = #expect(throws: ImageDecoders.JXL.Error.self) { try ImageDecoders.JXL().decode(many) }

        #expect(image.width == 8 && image.height == 8 && image.isOpaque)
        #expect(image.pixel(x: 3, y: 3) == .init(r: 200, g: 100, b: 50, a: 255))
        #expect(error?.description.contains("9 extra channels") == true)
        #expect(throws: ImageDecoders.JXL.Error.self) { try ImageDecoders.JXL.Animation(data: many) }
    }
}

/// An 8×8 lossless file of one colour with `extraChannels` optional extra channels, written by libjxl's encoder
/// (cjxl has no option for extra channels of this kind).
enum ExtraChannelFile {
    static func make(extraChannels: UInt32) throws -> Data {
        let encoder = try #require(JxlEncoderCreate(nil))
        defer { JxlEncoderDestroy(encoder) }
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        (info.xsize, info.ysize, info.bits_per_sample, info.num_color_channels) = (8, 8, 8, 3)
        info.num_extra_channels = extraChannels
        info.uses_original_profile = JXL_TRUE
        try #require(JxlEncoderSetBasicInfo(encoder, &info) == JXL_ENC_SUCCESS)
        for index in 0..<Int(extraChannels) {
            var channel = JxlExtraChannelInfo()
            JxlEncoderInitExtraChannelInfo(JXL_CHANNEL_OPTIONAL, &channel)
            channel.bits_per_sample = 8
            try #require(JxlEncoderSetExtraChannelInfo(encoder, index, &channel) == JXL_ENC_SUCCESS)
        }
        var srgb = JxlColorEncoding()
        JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE)
        try #require(JxlEncoderSetColorEncoding(encoder, &srgb) == JXL_ENC_SUCCESS)
        let settings = try #require(JxlEncoderFrameSettingsCreate(encoder, nil))
        try #require(JxlEncoderSetFrameLossless(settings, JXL_TRUE) == JXL_ENC_SUCCESS)
        var rgb = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let colour = [UInt8](Array(repeating: [200, 100, 50], count: 64).joined())
        try #require(JxlEncoderAddImageFrame(settings, &rgb, colour, colour.count) == JXL_ENC_SUCCESS)
        var grey = JxlPixelFormat(num_channels: 1, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let plane = [UInt8](repeating: 7, count: 64)
        for index in 0..<extraChannels {
            try #require(
                JxlEncoderSetExtraChannelBuffer(settings, &grey, plane, plane.count, index) == JXL_ENC_SUCCESS)
        }
        JxlEncoderCloseInput(encoder)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        let written = output.withUnsafeMutableBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var next: UnsafeMutablePointer<UInt8>? = base
            var available = buffer.count
            guard JxlEncoderProcessOutput(encoder, &next, &available) == JXL_ENC_SUCCESS else { return nil }
            return buffer.count - available
        }
        return Data(output.prefix(try #require(written)))
    }
}
