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
        let pixels = copyPixels(x: x, y: y, width: width, height: height)
        return PlatformImage(adopting: pixels, width: width, height: height, scale: scale, isOpaque: isOpaque)
    }

    /// A tightly packed copy of the pixels, for processors that modify them in place.
    func packedPixels() -> [UInt8] {
        guard bytesPerRow != width * Self.bytesPerPixel else { return bytes }
        return copyPixels(x: 0, y: 0, width: width, height: height)
    }

    private func copyPixels(x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * Self.bytesPerPixel
        let sourceStride = bytesPerRow
        return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { buffer, count in
            withUnsafeBytes { source in
                guard let src = source.baseAddress, let dst = buffer.baseAddress else { return }
                for row in 0..<height {
                    let from = src + (y + row) * sourceStride + x * Self.bytesPerPixel
                    UnsafeMutableRawPointer(dst + row * rowBytes).copyMemory(from: from, byteCount: rowBytes)
                }
            }
            count = rowBytes * height
        }
    }
}
