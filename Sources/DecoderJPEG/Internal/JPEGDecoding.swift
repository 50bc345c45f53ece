internal import CJPEGShim
import NukeCore

/// One decode: header, limits, DCT scale, pixels, orientation.
struct JPEGDecoding {
    let configuration: ImageDecoders.JPEG.Configuration
    let thumbnail: ImageRequest.ThumbnailOptions?
    let scale: Float

    /// Decodes `bytes`. With `allowsTruncation`, data that ends early decodes to what has arrived (libjpeg
    /// fills the rest); otherwise it throws ``ImageDecoders/JPEG/Error/truncatedData(message:)``.
    func decode(_ bytes: UnsafeRawBufferPointer, allowsTruncation: Bool) throws -> PlatformImage {
        let decompressor = try JPEGDecompressor()
        let header = try decompressor.readHeader(bytes)
        guard header.colorSpace != CJPEGShim_ColorSpaceUnsupported else {
            throw ImageDecoders.JPEG.Error.unsupportedColorSpace(componentCount: header.componentCount)
        }
        let limit = configuration.maximumPixelCount
        let (pixelCount, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, pixelCount <= limit, header.width > 0, header.height > 0 else {
            throw ImageDecoders.JPEG.Error.imageTooLarge(
                width: header.width, height: header.height, maximumPixelCount: limit)
        }
        let orientation =
            configuration.appliesOrientation ? JPEGMarkers.orientation(in: bytes) : ExifOrientation.up
        let denominator = scaleDenominator(width: header.width, height: header.height, orientation: orientation)
        let size = try decompressor.setScale(denominator: denominator)
        let maximumScanCount = configuration.maximumScanCount
        let image: PlatformImage
        do {
            image = try PlatformImage(width: size.width, height: size.height, isOpaque: true) { pixels in
                try decompressor.readPixels(
                    into: pixels, bytesPerRow: size.width * PlatformImage.bytesPerPixel,
                    maximumScanCount: maximumScanCount)
            }
        } catch is PlatformImage.Error {
            throw ImageDecoders.JPEG.Error.imageTooLarge(
                width: size.width, height: size.height, maximumPixelCount: limit)
        }
        if !allowsTruncation && decompressor.hitEndOfData {
            throw ImageDecoders.JPEG.Error.truncatedData(message: decompressor.message)
        }
        return orientation.apply(to: image)
    }

    /// The DCT scaling denominator: the largest of 8, 4 and 2 whose output still covers the thumbnail in
    /// both dimensions (measured in the displayed orientation), else 1.
    func scaleDenominator(width: Int, height: Int, orientation: ExifOrientation) -> Int {
        guard let thumbnail else { return 1 }
        let (orientedWidth, orientedHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        let target = thumbnail.targetPixelSize(width: orientedWidth, height: orientedHeight, scale: scale)
        for denominator in [8, 4, 2] {
            let scaledWidth = (orientedWidth + denominator - 1) / denominator
            let scaledHeight = (orientedHeight + denominator - 1) / denominator
            if scaledWidth >= target.width && scaledHeight >= target.height {
                return denominator
            }
        }
        return 1
    }
}
