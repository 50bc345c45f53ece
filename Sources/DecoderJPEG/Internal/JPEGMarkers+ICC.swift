import Foundation

extension JPEGMarkers {
    static let app2: UInt8 = 0xE2

    /// The identifier that starts an APP2 segment holding a piece of an ICC profile (ICC.1, annex B.4).
    private static let iccIdentifier = Array("ICC_PROFILE\0".utf8)

    /// The ICC profile split over the `APP2 ICC_PROFILE` segments before the first scan, its pieces put back in
    /// sequence order; `nil` when there is none, or the pieces don't make a whole profile (a missing, repeated or
    /// out-of-range sequence number, or counts that disagree).
    static func iccProfile(in bytes: UnsafeRawBufferPointer) -> Data? {
        var pieces: [Int: Range<Int>] = [:]
        var expectedCount: Int?
        var isConsistent = true
        walk(bytes, stoppingAtScan: true) { segment in
            guard segment.marker != startOfScan else { return false }
            let payload = segment.payload
            let header = iccIdentifier.count + 2
            guard segment.marker == app2, payload.count > header,
                iccIdentifier.indices.allSatisfy({ bytes[payload.lowerBound + $0] == iccIdentifier[$0] })
            else { return true }
            let sequence = Int(bytes[payload.lowerBound + iccIdentifier.count])
            let count = Int(bytes[payload.lowerBound + iccIdentifier.count + 1])
            if expectedCount == nil { expectedCount = count }
            // A count of 0 is malformed (ICC.1 B.4: the count is 1 to 255), so `1...count` is never empty here.
            guard count >= 1, count == expectedCount, (1...count).contains(sequence), pieces[sequence] == nil else {
                isConsistent = false
                return false
            }
            pieces[sequence] = (payload.lowerBound + header)..<payload.upperBound
            return true
        }
        guard isConsistent, let expectedCount, pieces.count == expectedCount else { return nil }
        var profile = Data()
        for sequence in 1...expectedCount {
            guard let range = pieces[sequence] else { return nil }
            profile.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
        return profile
    }

    /// `jpeg` with `profile` written as `APP2 ICC_PROFILE` segments (at most 65,519 bytes each) after the
    /// JFIF/EXIF segments that must come first; `nil` when the profile needs more than 255 segments or `jpeg`
    /// doesn't start with SOI.
    static func embedding(_ profile: Data, in jpeg: Data) -> Data? {
        let maximumPiece = 0xFFFF - 2 - iccIdentifier.count - 2
        let pieceCount = (profile.count + maximumPiece - 1) / maximumPiece
        guard !profile.isEmpty, pieceCount <= 255 else { return nil }
        return jpeg.withUnsafeBytes { bytes -> Data? in
            var insertion: Int?
            walk(bytes, stoppingAtScan: true) { segment in
                guard segment.marker == 0xE0 || segment.marker == app1 else {
                    insertion = segment.start
                    return false
                }
                return true
            }
            guard let insertion else { return nil }
            var result = Data(capacity: jpeg.count + profile.count + pieceCount * 18)
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<insertion]))
            for index in 0..<pieceCount {
                let piece = profile.dropFirst(index * maximumPiece).prefix(maximumPiece)
                let length = 2 + iccIdentifier.count + 2 + piece.count
                result.append(contentsOf: [0xFF, app2, UInt8(length >> 8), UInt8(length & 0xFF)])
                result.append(contentsOf: iccIdentifier)
                result.append(contentsOf: [UInt8(index + 1), UInt8(pieceCount)])
                result.append(piece)
            }
            result.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[insertion...]))
            return result
        }
    }
}
