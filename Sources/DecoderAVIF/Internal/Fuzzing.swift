public import Foundation

/// Entry points into the AVIF plugin's own container parsing for the fuzz targets of `Fuzz/` (`@_spi(Fuzzing)
/// import DecoderAVIF`). They run the internal code unchanged on untrusted bytes; none is API.
@_spi(Fuzzing)
public enum AVIFFuzzing {
    /// How many times the sequence in `data` plays (0: forever), read from its edit list; `nil` when it doesn't
    /// say. Any bytes at all, not only files libavif parses.
    public static func playCount(_ data: Data) -> Int? {
        data.withUnsafeBytes { AVIFEditList.playCount(in: $0) }
    }
}
