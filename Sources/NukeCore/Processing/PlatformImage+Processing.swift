public import Foundation

/// The pixel operations behind the processors. The callers validate their inputs.
extension PlatformImage {
    /// Resamples the whole image (or `region` of it) to `width` × `height` pixels.
    ///
    /// - Precondition: The image is not empty and the output size is positive and within
    ///   ``maximumPixelCount``.
    func resampled(region: PixelRegion? = nil, width: Int, height: Int) -> PlatformImage {
        let region = region ?? PixelRegion(x: 0, y: 0, width: Double(self.width), height: Double(self.height))
        return Resampler.resample(self, region: region, width: width, height: height)
    }

    /// The pixels inside the given rectangle, copied. Returns `self` when the rectangle is the whole image.
    ///
    /// - Precondition: The rectangle lies within the image and is not empty.
    func cropped(x: Int, y: Int, width: Int, height: Int) -> PlatformImage {
        if x == 0 && y == 0 && width == self.width && height == self.height {
            return self
        }
        return copied(x: x, y: y, width: width, height: height)
    }

    /// The image with tightly packed rows, for processors that modify the pixels in place: `self` when the rows
    /// are packed already (so the first write copies the storage only if another image shares it), else a copy.
    func packed() -> PlatformImage {
        guard bytesPerRow != width * Self.bytesPerPixel else { return self }
        return copied(x: 0, y: 0, width: width, height: height)
    }

    private func copied(x: Int, y: Int, width: Int, height: Int) -> PlatformImage {
        let rowBytes = width * Self.bytesPerPixel
        let sourceStride = bytesPerRow
        return PlatformImage(unchecked: width, height: height, scale: scale, isOpaque: isOpaque) { buffer in
            withUnsafeBytes { source in
                guard let src = source.baseAddress, let dst = buffer.baseAddress else { return }
                for row in 0..<height {
                    let from = src + (y + row) * sourceStride + x * Self.bytesPerPixel
                    (dst + row * rowBytes).copyMemory(from: from, byteCount: rowBytes)
                }
            }
        }
    }
}

extension PlatformImage {
    /// Resamples `region` of the image (in pixels, origin at the top-left corner; the whole image by default) to
    /// exactly `width` × `height` pixels with the filter of ``ImageProcessors/Resize``, in one pass. The aspect
    /// ratio is not kept: the region is stretched to the size. The building block for geometry the processors don't
    /// express (an exact size that crops and scales at once, or a non-uniform scale).
    ///
    /// - Throws: ``ImageProcessingError/emptyImage`` for an image without pixels,
    ///   ``ImageProcessingError/invalidTargetSize(width:height:)`` for a size that isn't positive,
    ///   ``ImageProcessingError/outputTooLarge(width:height:)`` above ``maximumPixelCount``, and
    ///   ``ImageProcessingError/cropRectOutsideImage(_:)`` for a region that is empty, not finite or not inside the
    ///   image.
    public func resampled(
        toWidth width: Int, height: Int, from region: CGRect? = nil
    ) throws(ImageProcessingError) -> PlatformImage {
        guard !isEmpty else { throw .emptyImage }
        guard width > 0, height > 0 else { throw .invalidTargetSize(width: Double(width), height: Double(height)) }
        guard width.multipliedReportingOverflow(by: height).partialValue <= Self.maximumPixelCount,
            width <= Self.maximumPixelCount, height <= Self.maximumPixelCount
        else { throw .outputTooLarge(width: Double(width), height: Double(height)) }
        let rect = region ?? CGRect(x: 0, y: 0, width: self.width, height: self.height)
        let values = [rect.minX, rect.minY, rect.width, rect.height].map(Double.init)
        guard values.allSatisfy(\.isFinite), rect.width > 0, rect.height > 0, rect.minX >= 0, rect.minY >= 0,
            rect.maxX <= CGFloat(self.width) + 1e-6, rect.maxY <= CGFloat(self.height) + 1e-6
        else { throw .cropRectOutsideImage(rect) }
        if width == self.width, height == self.height,
            rect == CGRect(x: 0, y: 0, width: self.width, height: self.height)
        {
            return self
        }
        let pixelRegion = PixelRegion(
            x: values[0], y: values[1], width: min(values[2], Double(self.width) - values[0]),
            height: min(values[3], Double(self.height) - values[1]))
        return resampled(region: pixelRegion, width: width, height: height)
    }
}
