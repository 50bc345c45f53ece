internal import CRSVG
import NukeCore

/// Renders an ``SVGDocument`` into a ``PlatformImage`` through a cairo image surface over the image's own
/// storage, then reorders cairo's native-endian premultiplied ARGB32 into RGBA bytes.
enum SVGRenderer {
    /// Cairo's largest image surface side.
    static let maximumDimension = 32767

    static func render(_ document: SVGDocument, width: Int, height: Int) throws -> PlatformImage {
        try PlatformImage(width: width, height: height) { pixels in
            guard let base = pixels.baseAddress else { return }
            base.initializeMemory(as: UInt8.self, repeating: 0, count: pixels.count)  // Transparent.
            let canvas = try CairoCanvas(pixels: base, width: width, height: height)
            var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
            var error: UnsafeMutablePointer<GError>?
            let succeeded = rsvg_handle_render_document(document.handle, canvas.context, &viewport, &error)
            let message = SVGDocument.consume(error)
            try canvas.finish()
            guard succeeded != 0 else {
                throw ImageDecoders.SVG.Error.renderingFailed(message: message ?? "librsvg could not render")
            }
            convertARGB32ToRGBA(pixels)
        }
    }

    /// Cairo's ARGB32 is a native-endian 32-bit 0xAARRGGBB (premultiplied); the image wants the bytes R, G,
    /// B, A in memory.
    static func convertARGB32ToRGBA(_ pixels: UnsafeMutableRawBufferPointer) {
        guard let base = pixels.baseAddress else { return }
        var offset = 0
        let count = pixels.count & ~3
        while offset < count {
            let argb = base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            let r = UInt8(truncatingIfNeeded: argb >> 16)
            let g = UInt8(truncatingIfNeeded: argb >> 8)
            let b = UInt8(truncatingIfNeeded: argb)
            let a = UInt8(truncatingIfNeeded: argb >> 24)
            base.storeBytes(of: r, toByteOffset: offset, as: UInt8.self)
            base.storeBytes(of: g, toByteOffset: offset + 1, as: UInt8.self)
            base.storeBytes(of: b, toByteOffset: offset + 2, as: UInt8.self)
            base.storeBytes(of: a, toByteOffset: offset + 3, as: UInt8.self)
            offset += 4
        }
    }
}

/// The one owner of a cairo image surface over caller-owned pixels and of its drawing context; `deinit`
/// releases them with `cairo_destroy` and `cairo_surface_destroy`. The pixels must outlive the canvas.
final class CairoCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer

    init(pixels: UnsafeMutableRawPointer, width: Int, height: Int) throws(ImageDecoders.SVG.Error) {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride == width * 4 else {
            throw .renderingFailed(message: "cairo wants a stride of \(stride) bytes for width \(width)")
        }
        let surface = cairo_image_surface_create_for_data(
            pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
        guard let surface else {
            throw .renderingFailed(message: "cairo could not create a surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            let message = cairo_status_to_string(status).map { String(cString: $0) } ?? "cairo error"
            cairo_surface_destroy(surface)
            throw .renderingFailed(message: message)
        }
        self.surface = surface
        self.context = context
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Flushes drawing to the pixels and reports cairo's error, if any.
    func finish() throws(ImageDecoders.SVG.Error) {
        cairo_surface_flush(surface)
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            let message = cairo_status_to_string(status).map { String(cString: $0) } ?? "cairo error"
            throw .renderingFailed(message: message)
        }
    }
}
