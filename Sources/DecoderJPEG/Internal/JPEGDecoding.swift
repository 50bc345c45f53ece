internal import CJPEGShim
import Foundation
import NukeCore

/// One decode: header, limits, DCT scale, pixels, orientation.
struct JPEGDecoding {
    let configuration: ImageDecoders.JPEG.Configuration
    let target: ImageDecodingTarget
    /// Whether a 1/8 decode of a complete progressive file may skip the scans it doesn't use (see
    /// ``JPEGMarkers/scansNeededAtOneEighth(of:)``). Tests turn it off to compare with the full decode.
    var skipsUnusedScansAtOneEighth = true
    /// The pipeline's colour converter (`ImageDecodingContext.colorConverter`): a full-size decode of a file with
    /// an ICC profile converts its rows to sRGB as libjpeg writes them, and returns the image without a profile.
    var colorConverter: (any ColorConverting)?

    /// Decodes `bytes`. With `allowsTruncation`, data that ends early decodes to what has arrived (libjpeg
    /// fills the rest); otherwise it throws ``ImageDecoders/JPEG/Error/truncatedData(message:)``.
    func decode(_ bytes: UnsafeRawBufferPointer, allowsTruncation: Bool) throws -> PlatformImage {
        let decompressor = try JPEGDecompressor()
        let header = try decompressor.readHeader(bytes)
        guard header.colorSpace != CJPEGShim_ColorSpaceUnsupported else {
            throw ImageDecoders.JPEG.Error.unsupportedColorSpace(componentCount: header.componentCount)
        }
        try configuration.checkPixelCount(
            width: header.width, height: header.height, throwing: ImageDecoders.JPEG.Error.self)
        let orientation =
            configuration.appliesOrientation ? JPEGMarkers.orientation(in: bytes) : ExifOrientation.up
        let denominator = scaleDenominator(width: header.width, height: header.height, orientation: orientation)
        // At 1/8 a progressive file's luma AC scans (most of its bytes) are unused and can be skipped; any
        // failure there falls back to the whole file, which reports the real error.
        if skipsUnusedScansAtOneEighth, denominator == 8, header.isProgressive, !allowsTruncation,
            let reduced = JPEGMarkers.scansNeededAtOneEighth(of: bytes),
            let image = try? reduced.withUnsafeBytes({ reducedBytes -> PlatformImage in
                let reducedDecompressor = try JPEGDecompressor()
                _ = try reducedDecompressor.readHeader(reducedBytes)
                // No block smoothing: libjpeg would otherwise estimate the skipped coefficients (and smooth DC).
                return try pixels(reducedDecompressor, denominator: 8, blockSmoothing: false, allowsTruncation: false)
            })
        {
            return withColorProfile(orientation.apply(to: image), from: bytes)
        }
        // Thumbnails are converted after they are made (fewer pixels); full-size decodes while they decode.
        let profile = JPEGMarkers.iccProfile(in: bytes).map(ColorProfile.icc)
        let rowConverter =
            denominator == 1 && target.thumbnail == nil
            ? profile.flatMap { colorConverter?.makeRowConverter(for: $0, isOpaque: true) } : nil
        var image = try pixels(
            decompressor, denominator: denominator, blockSmoothing: true, allowsTruncation: allowsTruncation,
            rowConverter: rowConverter)
        if rowConverter == nil {
            image.colorProfile = profile
        }
        return orientation.apply(to: image)
    }

    /// `image` with the ICC profile of the file's `APP2` segments, if it has a whole one.
    private func withColorProfile(_ image: PlatformImage, from bytes: UnsafeRawBufferPointer) -> PlatformImage {
        guard let profile = JPEGMarkers.iccProfile(in: bytes) else { return image }
        var image = image
        image.colorProfile = .icc(profile)
        return image
    }

    /// Decodes the pixels of a decompressor whose header was read.
    private func pixels(
        _ decompressor: JPEGDecompressor, denominator: Int, blockSmoothing: Bool, allowsTruncation: Bool,
        rowConverter: (any ColorRowConverting)? = nil
    ) throws -> PlatformImage {
        let size = try decompressor.setScale(denominator: denominator, blockSmoothing: blockSmoothing)
        let maximumScanCount = configuration.maximumScanCount
        let bytesPerRow = size.width * PlatformImage.bytesPerPixel
        let image: PlatformImage
        do {
            image = try PlatformImage(width: size.width, height: size.height, isOpaque: true) { pixels in
                let conversion = rowConverter.flatMap { converter in
                    pixels.baseAddress.map {
                        JPEGRowConversion(converter: converter, pixels: $0, width: size.width, bytesPerRow: bytesPerRow)
                    }
                }
                try decompressor.readPixels(
                    into: pixels, bytesPerRow: bytesPerRow, maximumScanCount: maximumScanCount,
                    conversion: conversion)
            }
        } catch is PlatformImage.Error {
            throw ImageDecoders.JPEG.Error.imageTooLarge(
                width: size.width, height: size.height, maximumPixelCount: configuration.maximumPixelCount)
        }
        if !allowsTruncation && decompressor.hitEndOfData {
            throw ImageDecoders.JPEG.Error.truncatedData(message: decompressor.message)
        }
        return image
    }

    /// The DCT scaling denominator: the largest of 8, 4 and 2 whose output still covers the thumbnail in
    /// both dimensions (measured in the displayed orientation), else 1.
    func scaleDenominator(width: Int, height: Int, orientation: ExifOrientation) -> Int {
        guard target.thumbnail != nil else { return 1 }
        let (orientedWidth, orientedHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        let target = target.pixelSize(width: orientedWidth, height: orientedHeight)
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
