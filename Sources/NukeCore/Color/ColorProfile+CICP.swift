extension ColorProfile {
    /// Coding-independent code points (ITU-T H.273 / ISO/IEC 23091-2): colour primaries, transfer
    /// characteristics, matrix coefficients and range, as AVIF's `nclx` box and PNG's `cICP` chunk store them.
    ///
    /// The values are kept as the file gave them, known or not; the constants name the common ones.
    public struct CICP: Sendable, Hashable, CustomStringConvertible {
        /// The colour primaries code point (1 = BT.709/sRGB, 9 = BT.2020, 12 = SMPTE EG 432, Display P3).
        public var colorPrimaries: UInt16
        /// The transfer characteristics code point (13 = sRGB, 1/6 = BT.709, 16 = PQ, 18 = HLG).
        public var transferCharacteristics: UInt16
        /// The matrix coefficients code point (0 = identity/RGB, 1 = BT.709, 6 = BT.601); decoders have already
        /// applied it when the pixels reach a ``PlatformImage``.
        public var matrixCoefficients: UInt16
        /// `true` for full-range values; decoders have already expanded limited-range values.
        public var isFullRange: Bool

        /// Creates a description from its code points.
        public init(
            colorPrimaries: UInt16, transferCharacteristics: UInt16, matrixCoefficients: UInt16, isFullRange: Bool
        ) {
            self.colorPrimaries = colorPrimaries
            self.transferCharacteristics = transferCharacteristics
            self.matrixCoefficients = matrixCoefficients
            self.isFullRange = isFullRange
        }

        /// Colour primaries 1: BT.709, the primaries of sRGB.
        public static let primariesBT709: UInt16 = 1
        /// Colour primaries 2: unspecified.
        public static let primariesUnspecified: UInt16 = 2
        /// Colour primaries 9: BT.2020.
        public static let primariesBT2020: UInt16 = 9
        /// Colour primaries 12: SMPTE EG 432-1, the primaries of Display P3.
        public static let primariesDisplayP3: UInt16 = 12
        /// Transfer characteristics 2: unspecified.
        public static let transferUnspecified: UInt16 = 2
        /// Transfer characteristics 13: the sRGB curve (IEC 61966-2-1).
        public static let transferSRGB: UInt16 = 13
        /// Transfer characteristics 16: SMPTE ST 2084 (PQ).
        public static let transferPQ: UInt16 = 16
        /// Transfer characteristics 18: ARIB STD-B67 (HLG).
        public static let transferHLG: UInt16 = 18

        /// `true` when the pixels are sRGB, or the description leaves the question open: BT.709 or unspecified
        /// primaries with the sRGB or an unspecified transfer. Nothing to convert.
        public var isSRGB: Bool {
            [Self.primariesBT709, Self.primariesUnspecified].contains(colorPrimaries)
                && [Self.transferSRGB, Self.transferUnspecified].contains(transferCharacteristics)
        }

        /// `"CICP primaries P, transfer T, matrix M, full|limited range"` with the common code points named.
        public var description: String {
            let primaries = [1: "BT.709", 2: "unspecified", 9: "BT.2020", 12: "Display P3"][Int(colorPrimaries)]
            let transfer = [1: "BT.709", 2: "unspecified", 6: "BT.601", 13: "sRGB", 16: "PQ", 18: "HLG"][
                Int(transferCharacteristics)]
            return "CICP primaries \(colorPrimaries)\(primaries.map { " (\($0))" } ?? ""), "
                + "transfer \(transferCharacteristics)\(transfer.map { " (\($0))" } ?? ""), "
                + "matrix \(matrixCoefficients), \(isFullRange ? "full" : "limited") range"
        }
    }
}
