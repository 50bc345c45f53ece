internal import CNukeKernels

/// The cells of an integer box reduction along one axis: cell `j` averages the input pixels
/// `[origin + j * factor, origin + (j + 1) * factor)` that lie within `lower..<upper`.
///
/// The grid is centred on the range, so the partial cells at both ends have the same size and the image
/// stays symmetric (its centre never moves). A grid can only be centred when `count * factor - length`
/// is even, so the initializer lowers an even factor by one when the length is odd.
struct BoxGrid: Sendable {
    /// The number of input pixels per cell.
    let factor: Int
    /// The input coordinate where cell 0 starts (at most `lower`).
    let origin: Int
    /// The number of cells.
    let count: Int
    /// The first input pixel included.
    let lower: Int
    /// One past the last input pixel included.
    let upper: Int

    /// Creates the grid for a box of (at most) `factor` pixels over `lower..<upper`.
    init(lower: Int, upper: Int, factor: Int) {
        let length = upper - lower
        var factor = max(1, factor)
        if factor % 2 == 0 && length % 2 == 1 {
            factor -= 1
        }
        var count = (length + factor - 1) / factor
        if (count * factor - length) % 2 == 1 {
            count += 1  // `factor` is odd here, so one more cell makes the overhang even.
        }
        self.factor = factor
        self.lower = lower
        self.upper = upper
        self.count = count
        self.origin = lower - (count * factor - length) / 2
    }

    /// The input pixels averaged by cell `index`.
    func range(of index: Int) -> Range<Int> {
        let start = origin + index * factor
        return max(lower, start)..<min(upper, start + factor)
    }
}

/// The filter taps of one axis of a resize: output pixel `i` is the weighted sum of the `tapCount`
/// inputs starting at `starts[i]`, with `weights[i * tapCount ..< (i + 1) * tapCount]` (zero-padded so every
/// output has the same number of taps, and always inside `0..<inputCount`).
struct ResampleAxis: Sendable {
    let outputCount: Int
    let inputCount: Int
    let tapCount: Int
    let starts: [Int]
    let weights: [Float]

    /// Computes the taps for `outputCount` outputs sampling `inputCount` inputs.
    ///
    /// - Parameters:
    ///   - origin: The input coordinate of the left edge of output pixel 0 (pixel `j` spans `[j, j + 1)`).
    ///   - scale: Input pixels per output pixel; when it is larger than one, the filter is widened by it so
    ///     that it averages everything it skips (no aliasing).
    init(outputCount: Int, inputCount: Int, origin: Double, scale: Double, kernel: ResampleKernel) {
        let filterScale = max(scale, 1)
        let radius = kernel.support * filterScale
        // A window spans at most 2 × radius + 1 pixels; one more covers the rounding of its ends.
        let capacity = max(1, min(inputCount, Int(2 * radius) + 2))
        var starts = [Int](repeating: 0, count: outputCount)
        var counts = [Int](repeating: 0, count: outputCount)
        var windows = [Float](repeating: 0, count: outputCount * capacity)
        // The windows are computed in C (`CNukeKernels`), as are the loops that use them, which keeps them fast in
        // debug builds too.
        starts.withUnsafeMutableBufferPointer { starts in
            counts.withUnsafeMutableBufferPointer { counts in
                windows.withUnsafeMutableBufferPointer { windows in
                    for i in 0..<outputCount {
                        let centre = origin + (Double(i) + 0.5) * scale - 0.5
                        counts[i] = CNukeKernels_ResampleWindow(
                            kernel.filter, centre, radius, filterScale, inputCount, capacity,
                            starts.baseAddress! + i, windows.baseAddress! + i * capacity)
                    }
                }
            }
        }
        let maxTaps = counts.max() ?? 1
        var flat = [Float](repeating: 0, count: outputCount * maxTaps)
        flat.withUnsafeMutableBufferPointer { flat in
            windows.withUnsafeBufferPointer { windows in
                for i in 0..<outputCount {
                    // Shift windows that would run past the end to the left; the extra taps weigh zero.
                    let start = min(starts[i], inputCount - maxTaps)
                    UnsafeMutableRawPointer(flat.baseAddress! + i * maxTaps + (starts[i] - start)).copyMemory(
                        from: windows.baseAddress! + i * capacity, byteCount: counts[i] * MemoryLayout<Float>.size)
                    starts[i] = start
                }
            }
        }
        self.outputCount = outputCount
        self.inputCount = inputCount
        self.tapCount = maxTaps
        self.starts = starts
        self.weights = flat
    }
}
