extension ImagePipeline {
    /// What the pipeline does with the colour profile of a decoded image (see ``ColorProfile``); the
    /// ``ImagePipeline/Configuration/colorProfilePolicy``.
    public enum ColorProfilePolicy: Sendable, Hashable {
        /// Convert the pixels to sRGB with ``ImagePipeline/Configuration/colorConverter`` right after decoding,
        /// so processors, encoders and the app see sRGB (the default). Without a converter the image keeps its
        /// pixels and its profile.
        case convertToSRGB
        /// Keep the decoded pixels in the image's own colour space and its ``PlatformImage/colorProfile``, which
        /// processors carry over and encoders embed in what they write.
        case keepOriginal
    }
}
