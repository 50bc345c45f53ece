internal import CNukeKernels

/// A separable reconstruction filter for the final stage of a resize.
enum ResampleKernel: Sendable {
    /// Windowed sinc with three lobes: the sharpest, with slight ringing next to hard edges.
    case lanczos3
    /// The Catmull-Rom cubic (B = 0, C = ½): almost as sharp as Lanczos with less ringing and two thirds of
    /// its taps.
    case catmullRom
    /// The tent filter: area-weighted linear interpolation, softer but free of ringing.
    case triangle

    /// The radius of the filter in input pixels when not shrinking.
    var support: Double {
        switch self {
        case .lanczos3: 3
        case .catmullRom: 2
        case .triangle: 1
        }
    }

    /// The filter as `CNukeKernels` computes it. The weight of a sample at distance `x` (in input pixels when
    /// not shrinking; unnormalised): Lanczos 3 is `3 sin(πx) sin(πx/3) / (πx)²` for |x| < 3; Catmull-Rom is
    /// `1.5|x|³ − 2.5|x|² + 1` for |x| < 1 and `−0.5|x|³ + 2.5|x|² − 4|x| + 2` for |x| < 2; the tent is
    /// `max(0, 1 − |x|)`; all are zero beyond their ``support``.
    var filter: CNukeKernels_Filter {
        switch self {
        case .lanczos3: CNukeKernels_FilterLanczos3
        case .catmullRom: CNukeKernels_FilterCatmullRom
        case .triangle: CNukeKernels_FilterTriangle
        }
    }
}
