public import Foundation

/// Entry points into the HEIF plugin's internal code for the fuzz targets of `Fuzz/` (`@_spi(Fuzzing) import
/// DecoderHEIF`). They run the internal code unchanged on untrusted bytes; none is API.
@_spi(Fuzzing)
public enum HEIFFuzzing {
    /// The size of the primary image's ICC profile (0 without one), read as colour management will read it;
    /// `nil` when libheif can't read the container. Any bytes at all.
    public static func iccProfileSize(_ data: Data) -> Int? {
        (try? HEIFReader.primaryColorProfile(of: data)).map { $0.icc?.count ?? 0 }
    }
}
