import CacheRedis
import Foundation
import LoaderURLSession
import Nuke

/// Builds the pipelines of the commands: the chosen loader and every codec, a fresh memory cache, the disk cache
/// only if given. What they did is in each pipeline's ``ImagePipeline/statistics``.
enum PipelineFactory {
    /// The loaders `--loader` accepts.
    enum Loader: String {
        case curl, urlsession

        init(argument: String) throws {
            guard let loader = Loader(rawValue: argument.lowercased()) else {
                throw UsageError("unknown loader '\(argument)' (use curl or urlsession)")
            }
            self = loader
        }

        func make() -> any DataLoading {
            switch self {
            case .curl: CurlDataLoader()
            case .urlsession: DataLoader()
            }
        }
    }

    /// The policies `--http-cache` accepts: `follow` or `ignore` (the caching headers of responses).
    static func httpCachePolicy(argument: String) throws -> ImagePipeline.HTTPCachePolicy {
        switch argument.lowercased() {
        case "follow": .followHeaders
        case "ignore": .ignoreHeaders
        default: throw UsageError("unknown --http-cache policy '\(argument)' (use follow or ignore)")
        }
    }

    static func make(
        loader: Loader = .curl,
        dataCache: (any DataCaching)? = nil,
        delegate: (any ImagePipeline.Delegate)? = nil,
        configure: (inout ImagePipeline.Configuration) -> Void = { _ in }
    ) -> ImagePipeline {
        let registry = ImageDecoderRegistry()
        registry.registerDefaultCodecs()
        var configuration = ImagePipeline.Configuration(dataLoader: loader.make(), imageCache: ImageCache())
        configuration.dataCache = dataCache
        configuration.makeImageDecoder = { registry.decoder(for: $0) }
        configuration.colorConverter = LCMSColorConverter.shared  // Embedded colour profiles to sRGB.
        configure(&configuration)
        return ImagePipeline(configuration: configuration, delegate: delegate)
    }

    /// A Redis cache for `url` (reads wait up to 2 s), its warnings printed to standard error.
    static func openRedis(_ url: String) throws -> RedisDataCache {
        try openRedis(urls: [url])
    }

    /// The Redis cache over `urls` (at least one), which split the keys by consistent hashing.
    static func openRedis(urls: [String]) throws -> RedisDataCache {
        do {
            var configuration = try RedisDataCache.Configuration(urls: urls)
            // A batch tool can wait longer than an app's request path for a hit (a read that times out costs a download,
            // which matters more to a tool sharing a fleet's cache than two seconds): 2 s before a read is a miss.
            configuration.readTimeout = 2
            configuration.logWarning = { Console.shared.error("warning: redis: \($0)") }
            return RedisDataCache(configuration: configuration)
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// Opens the disk cache at `path` (relative paths start in the current directory).
    static func openCache(at path: String) throws -> DataCache {
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return try DataCache(path: URL(fileURLWithPath: path, isDirectory: true, relativeTo: base).standardizedFileURL)
    }
}
