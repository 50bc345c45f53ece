import CacheDisk
import DecoderJPEG
import DecoderPNG
import Foundation
import NukeTestKit
import Testing

@testable import NukeCore

/// The pipeline with CacheDisk's `DataCache` and real codecs: what each `DataCachePolicy` puts on disk, and what a
/// later pipeline over the same directory gets back from it.
@Suite("DataCache in the pipeline")
struct DiskCachePipelineTests {
    static let policies: [ImagePipeline.DataCachePolicy] = [
        .automatic, .storeOriginalData, .storeEncodedImages, .storeAll,
    ]

    /// A JPEG served for an `https:` URL (the pipeline never stores local resources), 120×80, left half red.
    static let jpegURL = URL(string: "https://example.com/images/photo.jpeg")!
    static let pngURL = URL(string: "https://example.com/images/icon.png")!

    /// The cache directory, removed with everything in it on `deinit`.
    final class Directory: Sendable {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("DiskCachePipelineTests-\(UUID().uuidString)", isDirectory: true)

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        /// The entry files (named by 64 hexadecimal digits) in the directory.
        var entryFiles: [URL] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            return names.filter { $0.count == 64 }.map { url.appendingPathComponent($0) }
        }
    }

    /// One pipeline over the directory, with its own loader and a fresh `DataCache` instance.
    struct Fixture {
        let loader = MockDataLoader()
        let dataCache: DataCache
        let pipeline: ImagePipeline

        init(_ directory: Directory, policy: ImagePipeline.DataCachePolicy) throws {
            let dataCache = try DataCache(path: directory.url)
            let loader = self.loader
            loader.setResponse(for: DiskCachePipelineTests.jpegURL, data: DiskCachePipelineTests.images.jpeg)
            loader.setResponse(for: DiskCachePipelineTests.pngURL, data: DiskCachePipelineTests.images.png)
            let registry = ImageDecoderRegistry()
            ImageDecoders.PNG.register(in: registry)
            ImageDecoders.JPEG.register(in: registry)
            self.dataCache = dataCache
            pipeline = ImagePipeline {
                $0.dataLoader = loader
                $0.dataCache = dataCache
                $0.httpCachePolicy = .ignoreHeaders  // Nuke's semantics: what is stored is fresh
                $0.dataCachePolicy = policy
                $0.imageCache = nil
                $0.makeImageDecoder = { registry.decoder(for: $0) }
                $0.makeImageEncoder = { _ in ImageEncoders.PNG() }
            }
        }

        /// Loads `request`, then waits until every disk write is on disk.
        func load(_ request: ImageRequest) async throws -> ImageResponse {
            let response = try await pipeline.imageTask(with: request).response
            await pipeline.core.pendingEncodes.wait()
            dataCache.flush()
            return response
        }

        func key(_ request: ImageRequest) -> String {
            pipeline.cache.makeDataCacheKey(for: request)
        }
    }

    /// The served files: the same 120×80 image as JPEG and PNG.
    static let images: (jpeg: Data, png: Data) = {
        var rgba: [UInt8] = []
        for y in 0..<80 {
            for x in 0..<120 {
                rgba += x < 60 ? [220, 40, 40, 255] : [40, 40, UInt8(120 + y), 255]
            }
        }
        guard let image = try? PlatformImage(width: 120, height: 80, rgba: rgba),
            let jpeg = ImageEncoders.JPEG(quality: 0.9).encode(image),
            let png = ImageEncoders.PNG().encode(image)
        else { return (Data(), Data()) }
        return (jpeg, png)
    }()

    static var plain: ImageRequest { ImageRequest(url: jpegURL) }

    /// Resized to 60×40 pixels.
    static var processed: ImageRequest {
        ImageRequest(url: jpegURL, processors: [ImageProcessors.Resize(width: 60, unit: .pixels)])
    }

    // MARK: What lands on disk

    @Test(
        "a plain request stores the original data, or the re-encoded image with storeEncodedImages", arguments: policies
    )
    func plainRequest(policy: ImagePipeline.DataCachePolicy) async throws {
        // Given
        let directory = Directory()
        let fixture = try Fixture(directory, policy: policy)

        // When
        _ = try await fixture.load(Self.plain)

        // Then exactly one entry, under the original's key
        let key = fixture.key(Self.plain)
        #expect(key == Self.jpegURL.absoluteString)
        #expect(fixture.dataCache.containsData(for: key))
        #expect(directory.entryFiles.count == 1)
        let stored = try #require(fixture.dataCache.cachedData(for: key))
        if policy == .storeEncodedImages {
            #expect(AssetType(stored) == .png)
            #expect(try ImageDecoders.PNG().decode(stored).image.width == 120)
        } else {
            #expect(stored == Self.images.jpeg)
        }
    }

    @Test("a processed request stores what its policy says", arguments: policies)
    func processedRequest(policy: ImagePipeline.DataCachePolicy) async throws {
        // Given
        let directory = Directory()
        let fixture = try Fixture(directory, policy: policy)

        // When
        let response = try await fixture.load(Self.processed)

        // Then
        #expect(response.image.width == 60 && response.image.height == 40)
        let original = fixture.key(Self.plain)
        let processed = fixture.key(Self.processed)
        #expect(processed != original)
        let storesOriginal = policy == .storeOriginalData || policy == .storeAll
        let storesProcessed = policy != .storeOriginalData
        #expect(fixture.dataCache.containsData(for: original) == storesOriginal)
        #expect(fixture.dataCache.containsData(for: processed) == storesProcessed)
        #expect(directory.entryFiles.count == (storesOriginal ? 1 : 0) + (storesProcessed ? 1 : 0))
        if storesOriginal {
            #expect(fixture.dataCache.cachedData(for: original) == Self.images.jpeg)
        }
    }

    @Test(
        "encoded processed images decode back to the processed size",
        arguments: [
            ImagePipeline.DataCachePolicy.automatic, .storeEncodedImages, .storeAll,
        ])
    func encodedProcessedImage(policy: ImagePipeline.DataCachePolicy) async throws {
        // Given
        let directory = Directory()
        let fixture = try Fixture(directory, policy: policy)

        // When
        _ = try await fixture.load(Self.processed)

        // Then the entry is a PNG of the processed image
        let data = try #require(fixture.dataCache.cachedData(for: fixture.key(Self.processed)))
        #expect(AssetType(data) == .png)
        let image = try ImageDecoders.PNG().decode(data).image
        #expect(image.width == 60 && image.height == 40)
        let pixel = image.pixel(x: 10, y: 20)
        #expect(ImageComparison.isClose(pixel, to: .init(r: 220, g: 40, b: 40), tolerance: 12))
    }

    // MARK: A later pipeline over the same directory

    @Test("a second pipeline over the directory serves the image from disk without loading", arguments: policies)
    func secondPipelineReadsFromDisk(policy: ImagePipeline.DataCachePolicy) async throws {
        // Given a first pipeline that loaded both requests
        let directory = Directory()
        let first = try Fixture(directory, policy: policy)
        _ = try await first.load(Self.plain)
        _ = try await first.load(Self.processed)
        #expect(first.loader.createdTaskCount >= 1)

        // When a new pipeline with a new cache instance asks for them
        let second = try Fixture(directory, policy: policy)
        let plain = try await second.pipeline.imageTask(with: Self.plain).response
        let processed = try await second.pipeline.imageTask(with: Self.processed).response

        // Then both come from the disk, at the right size
        #expect(second.loader.createdTaskCount == 0)
        #expect(plain.cacheType == .disk)
        #expect(plain.image.width == 120 && plain.image.height == 80)
        #expect(processed.cacheType == .disk)
        #expect(processed.image.width == 60 && processed.image.height == 40)
        #expect(second.dataCache.statistics.hitCount >= 2)
    }

    @Test("a thumbnail request reuses the cached original data")
    func thumbnailReusesOriginalData() async throws {
        // Given the original PNG on disk
        let directory = Directory()
        let first = try Fixture(directory, policy: .storeOriginalData)
        _ = try await first.load(ImageRequest(url: Self.pngURL))

        // When a new pipeline asks for a thumbnail of it
        let second = try Fixture(directory, policy: .storeOriginalData)
        var request = ImageRequest(url: Self.pngURL)
        request.thumbnail = .init(maxPixelSize: 30)
        let response = try await second.load(request)

        // Then it is made from the cached data, without loading, and nothing new is stored
        #expect(second.loader.createdTaskCount == 0)
        #expect(response.cacheType == .disk)
        #expect(response.image.width == 30 && response.image.height == 20)
        #expect(directory.entryFiles.count == 1)
    }

    // MARK: Damage

    @Test(
        "a corrupted entry makes the pipeline load again instead of failing",
        arguments: [
            ImagePipeline.DataCachePolicy.storeOriginalData, .storeEncodedImages,
        ])
    func corruptedEntryIsLoadedAgain(policy: ImagePipeline.DataCachePolicy) async throws {
        // Given an entry whose file has bytes flipped in the middle
        let directory = Directory()
        let first = try Fixture(directory, policy: policy)
        _ = try await first.load(Self.plain)
        let file = try #require(directory.entryFiles.first)
        var bytes = try Data(contentsOf: file)
        for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 16, by: 1) {
            bytes[offset] ^= 0xFF
        }
        try bytes.write(to: file)

        // When a new pipeline asks for the image
        let second = try Fixture(directory, policy: policy)
        let response = try await second.load(Self.plain)

        // Then the damaged entry was a miss, the image was loaded and decoded, and the entry was written again
        #expect(second.loader.createdTaskCount == 1)
        #expect(response.cacheType == nil)
        #expect(response.image.width == 120 && response.image.height == 80)
        #expect(second.dataCache.statistics.damagedEntryCount == 1)
        let stored = try #require(second.dataCache.cachedData(for: second.key(Self.plain)))
        if policy == .storeEncodedImages {
            #expect(try ImageDecoders.PNG().decode(stored).image.width == 120)
        } else {
            #expect(stored == Self.images.jpeg)
        }
        #expect(try Data(contentsOf: file) != bytes)
    }
}
