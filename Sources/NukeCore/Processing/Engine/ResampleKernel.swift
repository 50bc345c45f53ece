import Foundation

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

    /// The (unnormalized) weight of a sample at distance `x`.
    func weight(_ x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .lanczos3:
            if x < 1e-9 { return 1 }
            guard x < 3 else { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        case .catmullRom:
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        case .triangle:
            return max(0, 1 - x)
        }
    }
}
