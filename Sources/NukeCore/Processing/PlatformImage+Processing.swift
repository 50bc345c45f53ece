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
