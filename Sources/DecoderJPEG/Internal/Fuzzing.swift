public import Foundation

/// Entry points into the JPEG plugin's marker walk for the fuzz targets of `Fuzz/` (`@_spi(Fuzzing) import
/// DecoderJPEG`). They run the internal code unchanged on untrusted bytes; none is API.
@_spi(Fuzzing)
public enum JPEGFuzzing {
    /// What the marker walk reads from `data`: the EXIF orientation (1–8), the progressive flag, the completed
    /// scans (count, and the offset past the last one), and the size of the 1/8-scale copy (`nil` if none).
    public static func walkMarkers(
        _ data: Data
    ) -> (
        orientation: Int, isProgressive: Bool, completedScanCount: Int, completedScansEnd: Int,
        oneEighthCount: Int?
    ) {
        data.withUnsafeBytes { bytes in
            let scans = JPEGMarkers.scans(in: bytes)
            return (
                JPEGMarkers.orientation(in: bytes).rawValue, scans.isProgressive, scans.completedScanCount,
                scans.completedScansEnd, JPEGMarkers.scansNeededAtOneEighth(of: bytes)?.count
            )
        }
    }
}
