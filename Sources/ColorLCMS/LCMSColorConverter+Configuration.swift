public import NukeCore

extension LCMSColorConverter {
    /// How ``LCMSColorConverter`` converts.
    public struct Configuration: Sendable, Hashable {
        /// The rendering intent. Default ``Intent/relativeColorimetric``, libvips' default.
        public var intent: Intent
        /// How many profiles' transforms are kept for reuse; when full, the cache starts over. Default 32.
        public var maximumCachedTransformCount: Int

        /// Creates a configuration.
        public init(intent: Intent = .relativeColorimetric, maximumCachedTransformCount: Int = 32) {
            self.intent = intent
            self.maximumCachedTransformCount = maximumCachedTransformCount
        }
    }

    /// An ICC rendering intent: how colours outside sRGB's gamut are brought in. Matrix/TRC profiles (most
    /// camera and display profiles) have no perceptual tables, so the two give the same result for them.
    public enum Intent: Sendable, Hashable {
        /// Compress the whole gamut smoothly, when the profile has perceptual tables.
        case perceptual
        /// Keep in-gamut colours exact and clip the rest (libvips' default).
        case relativeColorimetric
    }

    /// The errors of ``LCMSColorConverter/convertToSRGB(_:)``.
    public enum Error: Swift.Error, Sendable, Hashable {
        /// lcms2 rejected the ICC bytes, or could not build a transform from them to sRGB (damaged or truncated
        /// profile, not an RGB profile).
        case invalidProfile
        /// A CICP description without a profile here (such as BT.2020 with PQ or HLG): its code points.
        case unsupportedCICP(ColorProfile.CICP)
    }
}
