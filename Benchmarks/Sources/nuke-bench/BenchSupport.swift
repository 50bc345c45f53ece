import DecoderJPEG
import DecoderPNG
import DecoderWebP
import Foundation
import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Counts complete decodes, then hands the data to the wrapped decoder.
struct CountingDecoder: ImageDecoding {
    let inner: any ImageDecoding
    let counter: Counter

    func decode(_ data: Data) throws -> ImageContainer {
        counter.increment()
        return try inner.decode(data)
    }
}

/// A decoder registry with the raster codecs the network scenarios serve.
func makeBenchRegistry() -> ImageDecoderRegistry {
    let registry = ImageDecoderRegistry()
    ImageDecoders.PNG.register(in: registry)
    ImageDecoders.JPEG.register(in: registry)
    ImageDecoders.WebP.register(in: registry)
    return registry
}

/// The bytes accumulated by a `DataLoading` callback (which never runs concurrently with itself).
private final class DataBox: @unchecked Sendable {
    // @unchecked: `didReceiveData` calls are serial and `completion` follows the last one.
    var data = Data()
}

/// Loads `url` with `loader`, the way a hand-written client would: one transfer per call.
func loadData(_ url: URL, with loader: any DataLoading) async throws -> Data {
    let box = DataBox()
    return try await withCheckedThrowingContinuation { continuation in
        _ = loader.loadData(
            with: URLRequest(url: url),
            didReceiveData: { chunk, _ in
                // The first chunk is kept as is: appending it to an empty Data would copy it.
                if box.data.isEmpty { box.data = chunk } else { box.data.append(chunk) }
            },
            completion: { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: box.data)
                }
            })
    }
}

/// A small deterministic PRNG (so that request orders are the same in every run).
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The JPEG of `TestImages.photo` at the given size (quality 0.85).
func benchJPEG(width: Int, height: Int) throws -> Data {
    guard let data = ImageEncoders.JPEG(quality: 0.85).encode(try TestImages.photo(width: width, height: height))
    else { throw BenchmarkError(description: "could not encode a \(width)×\(height) JPEG") }
    return data
}

/// CPU time of the whole process (every thread, user and system), in seconds.
func processCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
