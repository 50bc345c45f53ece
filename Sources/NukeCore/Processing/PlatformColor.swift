public import Foundation

/// An sRGB colour with straight (not premultiplied) alpha, the Linux stand-in for Nuke's
/// `PlatformColor` (`UIColor` / `NSColor`), used by ``ImageProcessingOptions/Border``.
///
/// Components are `CGFloat`s in `0...1`, as with `UIColor(red:green:blue:alpha:)`; values outside the range
/// are clamped and a NaN becomes `0`, so every value is a colour an 8-bit image can show. Two colours are
/// equal when their components are. A value type, safe to use from any thread.
///
/// ```swift
/// let border = ImageProcessingOptions.Border(color: .red, width: 2)
/// let translucent = PlatformColor.white.withAlphaComponent(0.5)
/// ```
public struct PlatformColor: Hashable, Sendable, CustomStringConvertible {
    /// The red component, `0...1`.
    public let red: CGFloat
    /// The green component, `0...1`.
    public let green: CGFloat
    /// The blue component, `0...1`.
    public let blue: CGFloat
    /// The opacity, `0...1`; `1` is opaque.
    public let alpha: CGFloat

    /// Creates a colour from sRGB components in `0...1` (clamped; NaN becomes `0`).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        self.red = Self.clamped(red)
        self.green = Self.clamped(green)
        self.blue = Self.clamped(blue)
        self.alpha = Self.clamped(alpha)
    }

    /// Creates a grey: `white` is the brightness, `0...1` (clamped), as with `UIColor(white:alpha:)`.
    public init(white: CGFloat, alpha: CGFloat = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The same colour with the given opacity, `0...1` (clamped).
    public func withAlphaComponent(_ alpha: CGFloat) -> PlatformColor {
        PlatformColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// `#RRGGBB` for an opaque colour and `#RRGGBBAA` for a translucent one, each component rounded to
    /// 0–255 in upper-case hex, as Nuke formats colours in ``ImageProcessingOptions/Border``'s description.
    ///
    /// Stable: it is part of the identifiers, and so of the disk cache keys, of processors with borders.
    public var description: String {
        let components = alpha < 1 ? [red, green, blue, alpha] : [red, green, blue]
        return "#" + components.map(Self.hexByte).joined()
    }

    /// The colour premultiplied by its alpha, in the byte layout of a ``PlatformImage`` pixel.
    var premultipliedRGBA: PlatformImage.RGBA {
        func byte(_ value: CGFloat) -> UInt8 { UInt8((Double(value) * 255).rounded()) }
        return PlatformImage.RGBA(
            r: byte(red * alpha), g: byte(green * alpha), b: byte(blue * alpha), a: byte(alpha))
    }

    private static func clamped(_ value: CGFloat) -> CGFloat {
        value.isNaN ? 0 : min(1, max(0, value))
    }

    private static func hexByte(_ value: CGFloat) -> String {
        let digits = String(Int((Float(value) * 255).rounded()), radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }
}

extension PlatformColor {
    /// Opaque black (0, 0, 0).
    public static let black = PlatformColor(white: 0)
    /// Opaque dark grey, a third of the way to white (as `UIColor.darkGray`).
    public static let darkGray = PlatformColor(white: 1.0 / 3)
    /// Opaque grey, half-way to white (as `UIColor.gray`).
    public static let gray = PlatformColor(white: 0.5)
    /// Opaque light grey, two thirds of the way to white (as `UIColor.lightGray`).
    public static let lightGray = PlatformColor(white: 2.0 / 3)
    /// Opaque white (1, 1, 1).
    public static let white = PlatformColor(white: 1)
    /// Opaque red (1, 0, 0).
    public static let red = PlatformColor(red: 1, green: 0, blue: 0)
    /// Opaque green (0, 1, 0).
    public static let green = PlatformColor(red: 0, green: 1, blue: 0)
    /// Opaque blue (0, 0, 1).
    public static let blue = PlatformColor(red: 0, green: 0, blue: 1)
    /// Opaque cyan (0, 1, 1).
    public static let cyan = PlatformColor(red: 0, green: 1, blue: 1)
    /// Opaque yellow (1, 1, 0).
    public static let yellow = PlatformColor(red: 1, green: 1, blue: 0)
    /// Opaque magenta (1, 0, 1).
    public static let magenta = PlatformColor(red: 1, green: 0, blue: 1)
    /// Opaque orange (1, 0.5, 0), as `UIColor.orange`.
    public static let orange = PlatformColor(red: 1, green: 0.5, blue: 0)
    /// Opaque purple (0.5, 0, 0.5), as `UIColor.purple`.
    public static let purple = PlatformColor(red: 0.5, green: 0, blue: 0.5)
    /// Opaque brown (0.6, 0.4, 0.2), as `UIColor.brown`.
    public static let brown = PlatformColor(red: 0.6, green: 0.4, blue: 0.2)
    /// Fully transparent black (0, 0, 0, 0).
    public static let clear = PlatformColor(white: 0, alpha: 0)
}
