extension ImagePipeline.Configuration {
    /// Does to `image` what the pipeline does to every image it decodes under ``colorProfilePolicy``, for images
    /// decoded outside it: the frames of an ``ImageAnimation``, which are decoded on demand from the container's data
    /// and carry the file's ``PlatformImage/colorProfile``.
    ///
    /// Under `.convertToSRGB` with a ``colorConverter``, an image with a profile is converted to sRGB in place and
    /// its profile set to `nil`; when the converter can't use the profile (damaged, or a colour space it doesn't
    /// handle) the pixels are kept and the profile dropped, treated as sRGB, as the pipeline does. Otherwise
    /// (`.keepOriginal`, no converter, or no profile) the image is left as it is, and encoders embed its profile.
    ///
    /// ```swift
    /// try animation.forEachFrame { frame in
    ///     var image = frame.image
    ///     pipeline.configuration.applyColorProfilePolicy(to: &image)
    ///     show(image, for: frame.duration)
    /// }
    /// ```
    ///
    /// Thread-safe (a ``ColorConverting`` converter is); runs on the calling thread.
    public func applyColorProfilePolicy(to image: inout PlatformImage) {
        guard colorProfilePolicy == .convertToSRGB, let colorConverter, image.colorProfile != nil else { return }
        try? colorConverter.convertToSRGB(&image)
        image.colorProfile = nil
    }
}
