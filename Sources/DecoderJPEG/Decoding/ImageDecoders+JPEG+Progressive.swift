public import Foundation
public import NukeCore

extension ImageDecoders.JPEG {
    /// Returns a preview of a partially downloaded progressive JPEG each time one more scan has fully
    /// arrived, or `nil` when there is nothing new to show.
    ///
    /// Baseline (non-progressive) JPEGs produce no previews. A preview shows every completed scan (the first
    /// scan is usually a blocky DC-only image; later ones add detail), at the same size and orientation as
    /// the final image, with `ImageContainer.isPreview` set and the number of completed scans in
    /// `ImageContainer.userInfo` under `ImageContainer.UserInfoKey.scanNumberKey`. Never throws:
    /// data that can't be decoded yet yields `nil`. Thread-safe; concurrent calls for the same image produce
    /// each scan count at most once.
    public func decodePartiallyDownloadedData(_ data: Data) -> ImageContainer? {
        let scans = data.withUnsafeBytes { JPEGMarkers.scans(in: $0) }
        guard scans.isProgressive, scans.completedScanCount > 0,
            previews.claim(scanCount: scans.completedScanCount)
        else {
            return nil
        }
        guard let image = try? decodeImage(data.prefix(scans.completedScansEnd), allowsTruncation: true) else {
            return nil
        }
        return ImageContainer(
            image: image, type: .jpeg, isPreview: true,
            userInfo: [.scanNumberKey: scans.completedScanCount])
    }
}

/// The number of scans the last preview showed, shared by the copies of one decoder.
final class PreviewState: Sendable {
    private let scanCount = LockedValueBox(0)

    /// Records `scanCount` and returns `true` if it is more than any earlier claim.
    func claim(scanCount newValue: Int) -> Bool {
        scanCount.withLock { scanCount in
            guard newValue > scanCount else { return false }
            scanCount = newValue
            return true
        }
    }
}
