internal import CNukeKernels

/// A rectangle of source pixels; the edges may be fractional.
struct PixelRegion: Sendable, Equatable {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
}

/// High-quality resampling of premultiplied RGBA images.
///
/// Shrinking runs in two stages, like libvips and Pillow: an exact integer box reduction (area average)
/// brings the image to within ``reductionGap`` times the target size, then a separable windowed filter
/// widened by the remaining factor produces the target. The filter works on premultiplied values, so
/// transparent pixels contribute no colour (no dark fringes) and outputs stay valid premultiplied values.
///
/// Rows stream through a small ring of reduced rows, so memory beyond the output stays proportional to one
/// row times the number of taps; bands of output rows run on all cores for large images. The per-pixel loops are
/// in C (`CNukeKernels`), which keeps them fast in debug builds too.
enum Resampler {
    /// The box stage stops once the image is within this factor of the target, leaving the rest to the
    /// filter (libvips and Pillow use the same default).
    static let reductionGap = 2.0
    /// Bounds the box factor so that sums of a column of a cell fit in 16 bits.
    static let maximumBoxFactor = 255

    /// Resamples `region` of `image` to `width` × `height` pixels.
    ///
    /// - Precondition: `image` is not empty, `region` lies within it with positive size, and the output
    ///   size is positive and within ``PlatformImage/maximumPixelCount``.
    static func resample(
        _ image: PlatformImage,
        region: PixelRegion,
        width: Int,
        height: Int,
        kernel: ResampleKernel = .lanczos3
    ) -> PlatformImage {
        let plan = Plan(image: image, region: region, width: width, height: height, kernel: kernel)
        return PlatformImage(unchecked: width, height: height, scale: image.scale, isOpaque: image.isOpaque) { buffer in
            image.withUnsafeBytes { source in
                guard let src = source.baseAddress, let dst = buffer.baseAddress else { return }
                plan.run(
                    source: src.assumingMemoryBound(to: UInt8.self),
                    destination: dst.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// The box factor for a reduction by `scale` input pixels per output pixel.
    static func boxFactor(for scale: Double) -> Int {
        let factor = Int((scale / reductionGap).rounded(.down))
        return factor < 2 ? 1 : min(factor, maximumBoxFactor)
    }

    /// Everything computed once per resize: the box grids and the filter taps of both axes.
    struct Plan: Sendable {
        let bytesPerRow: Int
        let gridX: BoxGrid
        let gridY: BoxGrid
        let axisX: ResampleAxis
        let axisY: ResampleAxis
        /// The horizontal weights, each repeated in four consecutive floats (one per channel).
        let weightsX: [Float]

        init(image: PlatformImage, region: PixelRegion, width: Int, height: Int, kernel: ResampleKernel) {
            let x0 = max(0, Int(region.x.rounded(.down)))
            let x1 = max(x0 + 1, min(image.width, Int((region.x + region.width).rounded(.up))))
            let y0 = max(0, Int(region.y.rounded(.down)))
            let y1 = max(y0 + 1, min(image.height, Int((region.y + region.height).rounded(.up))))
            let scaleX = region.width / Double(width)
            let scaleY = region.height / Double(height)
            bytesPerRow = image.bytesPerRow
            gridX = BoxGrid(lower: x0, upper: x1, factor: Resampler.boxFactor(for: scaleX))
            gridY = BoxGrid(lower: y0, upper: y1, factor: Resampler.boxFactor(for: scaleY))
            axisX = ResampleAxis(
                outputCount: width, inputCount: gridX.count,
                origin: (region.x - Double(gridX.origin)) / Double(gridX.factor),
                scale: scaleX / Double(gridX.factor), kernel: kernel)
            axisY = ResampleAxis(
                outputCount: height, inputCount: gridY.count,
                origin: (region.y - Double(gridY.origin)) / Double(gridY.factor),
                scale: scaleY / Double(gridY.factor), kernel: kernel)
            let weights = axisX.weights
            weightsX = [Float](unsafeUninitializedCapacity: weights.count * 4) { buffer, count in
                for (index, weight) in weights.enumerated() {
                    (buffer.baseAddress! + index * 4).initialize(repeating: weight, count: 4)
                }
                count = weights.count * 4
            }
        }

        /// Fills `destination` (tightly packed output rows).
        func run(source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>) {
            let sourcePixels = (gridX.upper - gridX.lower) * (gridY.upper - gridY.lower)
            let work = sourcePixels + axisX.outputCount * axisY.outputCount * (axisX.tapCount + axisY.tapCount)
            let pointers = UncheckedSendable((source, destination))
            // Each chunk starts by filling its ring (taps - 1 extra reduced rows); keep that below ~5 %.
            let maximumChunks = 1 + gridY.count / (20 * max(1, axisY.tapCount - 1))
            Parallel.forEachChunk(count: axisY.outputCount, work: work, maximumChunks: maximumChunks) { rows in
                self.run(rows: rows, source: pointers.value.0, destination: pointers.value.1)
            }
        }

        /// Produces the output rows `rows`. Each reduced row is filtered horizontally once, into a ring of
        /// output-width rows that the vertical filter then combines; the ring stays small enough for the caches.
        private func run(rows: Range<Int>, source: UnsafePointer<UInt8>, destination: UnsafeMutablePointer<UInt8>) {
            let outputWidth = axisX.outputCount
            let rowFloats = outputWidth * 4
            let taps = axisY.tapCount
            let ring = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats * taps)
            let reduced = UnsafeMutablePointer<Float>.allocate(capacity: gridX.count * 8)
            let filtered = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
            let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: (gridX.upper - gridX.lower) * 4)
            let ringRows = UnsafeMutablePointer<UnsafePointer<Float>?>.allocate(capacity: taps)
            defer {
                ring.deallocate()
                reduced.deallocate()
                filtered.deallocate()
                sums.deallocate()
                ringRows.deallocate()
            }
            let reducer = BoxReducer(
                source: source, bytesPerRow: bytesPerRow, gridX: gridX, gridY: gridY, sums: sums)
            var produced = 0..<0
            axisY.weights.withUnsafeBufferPointer { weightsY in
                weightsX.withUnsafeBufferPointer { weightsX in
                    axisX.starts.withUnsafeBufferPointer { startsX in
                        for row in rows {
                            let start = axisY.starts[row]
                            let end = start + taps
                            var next = start >= produced.upperBound ? start : produced.upperBound
                            // Two rows at a time where possible: each weight is then loaded once for both.
                            while next + 2 <= end {
                                let second = reduced + gridX.count * 4
                                reducer.reduceRow(next, into: reduced)
                                reducer.reduceRow(next + 1, into: second)
                                CNukeKernels_FilterRows(
                                    reduced, second, startsX.baseAddress!, weightsX.baseAddress!, axisX.tapCount,
                                    outputWidth, ring + (next % taps) * rowFloats,
                                    ring + ((next + 1) % taps) * rowFloats)
                                next += 2
                            }
                            if next < end {
                                reducer.reduceRow(next, into: reduced)
                                CNukeKernels_FilterRow(
                                    reduced, startsX.baseAddress!, weightsX.baseAddress!, axisX.tapCount, outputWidth,
                                    ring + (next % taps) * rowFloats)
                                next += 1
                            }
                            produced = start..<end
                            for tap in 0..<taps {
                                ringRows[tap] = UnsafePointer(ring + ((start + tap) % taps) * rowFloats)
                            }
                            CNukeKernels_WeightedSum(
                                ringRows, weightsY.baseAddress! + row * taps, taps, rowFloats, filtered)
                            CNukeKernels_StorePixels(filtered, outputWidth, destination + row * rowFloats)
                        }
                    }
                }
            }
        }
    }
}
