import Foundation
public import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ImagePipeline.Configuration {
    /// Nuke's recommended configuration: a ``DataCache`` for original image data, ``withDataCache(name:sizeLimit:)``
    /// with its defaults.
    public static var withDataCache: ImagePipeline.Configuration {
        withDataCache()
    }

    /// A configuration that keeps original image data in a ``DataCache`` (in the user's cache directory,
    /// `$XDG_CACHE_HOME` or `~/.cache`), loads with ``CurlDataLoader``, decodes with the shared registry and then
    /// ``ImageDecoders/Default`` (PNG, JPEG, WebP, SVG, GIF, AVIF, HEIF, JPEG XL), encodes with
    /// ``ImageEncoders/Default``, and converts images with a colour profile to sRGB with ``LCMSColorConverter/shared``.
    ///
    /// Nuke's version loads with `URLSession`; `CurlDataLoader` is several times faster on Linux. If the cache
    /// directory can't be created the configuration has no disk cache (as in Nuke, where `try?` drops it).
    ///
    /// - Parameters:
    ///   - name: The cache's directory name.
    ///   - sizeLimit: The disk cache's size limit in bytes; `nil` keeps ``DataCache/defaultSizeLimit``.
    public static func withDataCache(
        name: String = "com.github.kean.Nuke.DataCache",
        sizeLimit: Int? = nil
    ) -> ImagePipeline.Configuration {
        var configuration = ImagePipeline.Configuration(dataLoader: CurlDataLoader())
        configuration.useDefaultCodecs()
        let dataCache = try? DataCache(name: name)
        if let sizeLimit { dataCache?.sizeLimit = sizeLimit }
        configuration.dataCache = dataCache
        return configuration
    }

    /// Nuke's configuration that leaves HTTP caching to `URLCache`: a ``DataLoader`` whose session uses
    /// ``DataLoader/sharedUrlCache``, and no ``DataCache``.
    ///
    /// On Linux FoundationNetworking's `URLCache` caches nothing by default and ignores query strings, so
    /// this configuration has, in effect, only the memory cache. It exists so code written for Nuke compiles
    /// and runs; prefer ``withDataCache``.
    public static var withURLCache: ImagePipeline.Configuration {
        let session = DataLoader.defaultConfiguration
        session.urlCache = DataLoader.sharedUrlCache
        session.requestCachePolicy = .useProtocolCachePolicy
        var configuration = ImagePipeline.Configuration(dataLoader: DataLoader(configuration: session))
        configuration.useDefaultCodecs()
        return configuration
    }

    /// Decoders from the shared registry first (an app's own), then ``ImageDecoders/Default``; encoded images
    /// with ``ImageEncoders/Default``; colour profiles converted to sRGB with ``LCMSColorConverter/shared``.
    private mutating func useDefaultCodecs() {
        colorConverter = LCMSColorConverter.shared
        makeImageDecoder = { ImageDecoderRegistry.shared.decoder(for: $0) ?? ImageDecoders.Default(context: $0) }
        asksSharedDecoderRegistry = true  // "No decoder" errors point to the shared registry, which is asked first.
        makeImageEncoder = { _ in ImageEncoders.Default() }
    }
}
