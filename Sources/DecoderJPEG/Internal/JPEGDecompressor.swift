import NukeCore
internal import CJPEGShim

/// The one owner of a libjpeg decompressor (through CJPEGShim); `deinit` releases it.
///
/// Not thread-safe: one decompressor decodes one image on one thread. The data passed to
/// ``readHeader(_:)`` must stay valid until ``readPixels(into:bytesPerRow:maximumScanCount:)`` returns.
final class JPEGDecompressor {
    private let handle: OpaquePointer

    init() throws(ImageDecoders.JPEG.Error) {
        guard let handle = CJPEGShim_DecoderCreate() else {
            throw .outOfMemory
        }
        self.handle = handle
    }

    deinit {
        CJPEGShim_DecoderDestroy(handle)
    }

    /// The frame header.
    struct Header {
        var width: Int
        var height: Int
        var componentCount: Int
        var colorSpace: CJPEGShim_ColorSpace
        var isProgressive: Bool
    }

    /// libjpeg's message for the last error, or its first warning.
    var message: String {
        guard let message = CJPEGShim_DecoderMessage(handle) else { return "" }
        return String(cString: message)
    }

    /// `true` when the data ended before the last row was decoded.
    var hitEndOfData: Bool { CJPEGShim_DecoderHitEndOfData(handle) != 0 }

    /// The number of warnings libjpeg reported about recoverable corruption.
    var warningCount: Int { CJPEGShim_DecoderWarningCount(handle) }

    func readHeader(_ bytes: UnsafeRawBufferPointer) throws(ImageDecoders.JPEG.Error) -> Header {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw .emptyData
        }
        var header = CJPEGShim_Header()
        let status = CJPEGShim_DecoderReadHeader(
            handle, base.assumingMemoryBound(to: UInt8.self), bytes.count, &header)
        guard status == CJPEGShim_OK else {
            throw hitEndOfData ? .truncatedData(message: message) : .invalidData(message: message)
        }
        return Header(
            width: Int(header.width),
            height: Int(header.height),
            componentCount: Int(header.componentCount),
            colorSpace: header.colorSpace,
            isProgressive: header.isProgressive != 0)
    }

    /// Selects DCT scaling by 1/`denominator` and returns the output size. `blockSmoothing` lets libjpeg
    /// estimate coefficients that a progressive file hasn't delivered (good for previews).
    func setScale(
        denominator: Int, blockSmoothing: Bool = true
    ) throws(ImageDecoders.JPEG.Error) -> (width: Int, height: Int) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        let smoothing: Int32 = blockSmoothing ? 1 : 0
        guard CJPEGShim_DecoderSetScale(handle, Int32(denominator), smoothing, &width, &height) == CJPEGShim_OK
        else {
            throw .invalidData(message: message)
        }
        return (Int(width), Int(height))
    }

    /// Decodes all rows as opaque RGBA into `pixels`; with a `conversion`, each band of finished rows goes to it
    /// (and it has converted every row, or is waited for after an error, when this returns).
    func readPixels(
        into pixels: UnsafeMutableRawBufferPointer, bytesPerRow: Int, maximumScanCount: Int,
        conversion: JPEGRowConversion? = nil
    ) throws(ImageDecoders.JPEG.Error) {
        guard let base = pixels.baseAddress else { return }
        let limit = Int32(clamping: maximumScanCount)
        let status = withExtendedLifetime(conversion) {
            CJPEGShim_DecoderReadPixels(
                handle, base.assumingMemoryBound(to: UInt8.self), bytesPerRow, limit,
                conversion == nil ? nil : JPEGRowConversion.callback,
                conversion.map { Unmanaged.passUnretained($0).toOpaque() })
        }
        guard status == CJPEGShim_OK else {
            conversion?.wait()
            throw .invalidData(message: message)
        }
        conversion?.finish(rowCount: pixels.count / bytesPerRow)
    }
}
