internal import CRSVG
import Foundation
import NukeCore

/// The one owner of a loaded librsvg handle; `deinit` releases it with `g_object_unref`.
///
/// The handle is created from memory with no base URL, so librsvg refuses to load any external
/// reference. Not thread-safe: one document is rendered on one thread at a time.
final class SVGDocument {
    let handle: UnsafeMutablePointer<RsvgHandle>
    /// The resolution for physical units.
    let dpi: Double

    /// Parses `data`.
    init(data: Data, dpi: Double) throws(ImageDecoders.SVG.Error) {
        var error: UnsafeMutablePointer<GError>?
        let handle = data.withUnsafeBytes { bytes -> UnsafeMutablePointer<RsvgHandle>? in
            guard let base = bytes.baseAddress else { return nil }
            return rsvg_handle_new_from_data(base.assumingMemoryBound(to: UInt8.self), gsize(bytes.count), &error)
        }
        let message = SVGDocument.consume(error)
        guard let handle else {
            throw .invalidData(message: message ?? "librsvg could not load the document")
        }
        self.handle = handle
        self.dpi = dpi.isFinite && dpi > 0 ? dpi : 96
        rsvg_handle_set_dpi(handle, self.dpi)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// Returns the message of `error` and frees it with `g_error_free`.
    static func consume(_ error: UnsafeMutablePointer<GError>?) -> String? {
        guard let error else { return nil }
        defer { g_error_free(error) }
        guard let message = error.pointee.message else { return "unknown librsvg error" }
        return String(cString: message)
    }

    /// The document's size in pixels: absolute `width` and `height`, else the `viewBox` (scaled to the one
    /// absolute dimension if there is one); `nil` if neither is usable.
    var intrinsicSize: (width: Double, height: Double)? {
        var width = 0.0
        var height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0, Self.isUsable(width, height) {
            return (width, height)
        }
        var hasWidth: gboolean = 0
        var hasHeight: gboolean = 0
        var hasViewBox: gboolean = 0
        var widthLength = RsvgLength()
        var heightLength = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(
            handle, &hasWidth, &widthLength, &hasHeight, &heightLength, &hasViewBox, &viewBox)
        guard hasViewBox != 0, Self.isUsable(viewBox.width, viewBox.height) else { return nil }
        let aspect = viewBox.height / viewBox.width
        if hasWidth != 0, let absoluteWidth = pixels(widthLength) {
            return Self.isUsable(absoluteWidth, absoluteWidth * aspect) ? (absoluteWidth, absoluteWidth * aspect) : nil
        }
        if hasHeight != 0, let absoluteHeight = pixels(heightLength) {
            return Self.isUsable(absoluteHeight / aspect, absoluteHeight)
                ? (absoluteHeight / aspect, absoluteHeight) : nil
        }
        return (viewBox.width, viewBox.height)
    }

    private static func isUsable(_ width: Double, _ height: Double) -> Bool {
        width.isFinite && height.isFinite && width > 0 && height > 0
    }

    /// A length in absolute units converted to pixels; `nil` for percentages and font-relative units.
    private func pixels(_ length: RsvgLength) -> Double? {
        let perUnit: Double
        switch length.unit {
        case RSVG_UNIT_PX: perUnit = 1
        case RSVG_UNIT_IN: perUnit = dpi
        case RSVG_UNIT_CM: perUnit = dpi / 2.54
        case RSVG_UNIT_MM: perUnit = dpi / 25.4
        case RSVG_UNIT_PT: perUnit = dpi / 72
        case RSVG_UNIT_PC: perUnit = dpi / 6
        default: return nil
        }
        let value = length.length * perUnit
        return value.isFinite && value > 0 ? value : nil
    }
}
