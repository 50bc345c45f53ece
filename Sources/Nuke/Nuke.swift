import Foundation
@_exported public import CacheDisk
@_exported public import ColorLCMS
@_exported public import DecoderAVIF
@_exported public import DecoderGIF
@_exported public import DecoderHEIF
@_exported public import DecoderJPEG
@_exported public import DecoderJXL
@_exported public import DecoderPNG
@_exported public import DecoderSVG
@_exported public import DecoderWebP
@_exported public import LoaderCurl
@_exported public import LoaderURLSession
@_exported public import NukeCore

extension ImagePipeline {
    /// Makes a pipeline with the default set of plugins: ``CurlDataLoader``, a ``DataCache`` named `cacheName` in
    /// the user's cache directory (`$XDG_CACHE_HOME` or `~/.cache`), the PNG, JPEG, WebP, SVG, GIF,
    /// AVIF, HEIF and JPEG XL decoders (registered in `registry`), ``ImageEncoders/Default`` for encoded images in
    /// the disk cache, and ``LCMSColorConverter/shared``, which converts images with a colour profile to sRGB.
    ///
    /// - Parameters:
    ///   - cacheName: The disk cache's directory name.
    ///   - registry: Where the decoders are registered (the shared registry by default).
    ///   - configure: Adjusts the configuration before the pipeline is made.
    /// - Throws: ``DataCache/Error`` if the cache directory can't be created.
    public static func makeDefault(
        cacheName: String = "com.github.nuke-linux",
        registry: ImageDecoderRegistry = .shared,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws -> ImagePipeline {
        registry.registerDefaultCodecs()
        var configuration = ImagePipeline.Configuration(dataLoader: CurlDataLoader())
        configuration.dataCache = try DataCache(name: cacheName)
        if registry !== ImageDecoderRegistry.shared {
            // The default lookup already asks the shared registry, and its "no decoder" errors say so.
            configuration.makeImageDecoder = { registry.decoder(for: $0) }
        }
        configuration.makeImageEncoder = { _ in ImageEncoders.Default() }
        configuration.colorConverter = LCMSColorConverter.shared
        configure(&configuration)
        return ImagePipeline(configuration: configuration)
    }

    /// Sets up ``ImagePipeline/shared`` with the default set of plugins (see
    /// ``makeDefault(cacheName:registry:configure:)``) and returns it.
    ///
    /// ```swift
    /// import Nuke
    ///
    /// try ImagePipeline.setUpShared()
    /// let image = try await ImagePipeline.shared.image(for: url)
    /// ```
    @discardableResult
    public static func setUpShared(
        cacheName: String = "com.github.nuke-linux",
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) throws -> ImagePipeline {
        let pipeline = try makeDefault(cacheName: cacheName, configure: configure)
        shared = pipeline
        return pipeline
    }
}

extension ImageDecoderRegistry {
    /// Registers the PNG, JPEG, WebP, SVG, GIF, AVIF, HEIF and JPEG XL decoders. Registering again adds them again (the latest
    /// registration is asked first), so call it once.
    public func registerDefaultCodecs() {
        ImageDecoders.PNG.register(in: self)
        ImageDecoders.JPEG.register(in: self)
        ImageDecoders.WebP.register(in: self)
        ImageDecoders.SVG.register(in: self)
        ImageDecoders.GIF.register(in: self)
        ImageDecoders.AVIF.register(in: self)
        ImageDecoders.HEIF.register(in: self)
        ImageDecoders.JXL.register(in: self)
    }
}
