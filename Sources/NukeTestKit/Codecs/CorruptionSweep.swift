public import Foundation
public import NukeCore

/// Feeds a decoder damaged copies of a valid file — every truncation and seeded random byte mutations —
/// to check that bad input only ever returns or throws. A crash, trap or hang fails the whole test run,
/// which is the point; the returned ``Report`` lets a test also check that the damage was noticed.
///
/// ```swift
/// let report = CorruptionSweep.run(decoder: ImageDecoders.PNG(), sample: validPNG, mutationCount: 300)
/// #expect(report.thrown > 0)
/// ```
///
/// Runs synchronously on the caller's thread. Deterministic for a given `seed`.
public enum CorruptionSweep {
    /// What a sweep saw.
    public struct Report: Sendable, CustomStringConvertible {
        /// The number of inputs that decoded to an image.
        public var decoded = 0
        /// The number of inputs that threw.
        public var thrown = 0
        /// The distinct descriptions of the errors thrown, for assertions and diagnostics.
        public var errorDescriptions: Set<String> = []

        /// The number of inputs tried.
        public var total: Int { decoded + thrown }

        public var description: String {
            "CorruptionSweep.Report(decoded: \(decoded), thrown: \(thrown), distinct errors: \(errorDescriptions.count))"
        }
    }

    /// Every proper prefix of `data` (lengths 0 through `data.count - 1`), in increasing length.
    public static func truncations(of data: Data) -> [Data] {
        (0..<data.count).map { data.prefix($0) }
    }

    /// `count` copies of `data`, each with 1 to 8 bytes replaced by random values (and, for one in four, a
    /// random range of up to 16 bytes removed), from a generator seeded with `seed`.
    public static func mutations(of data: Data, count: Int, seed: UInt64) -> [Data] {
        guard !data.isEmpty else { return [] }
        var generator = SeededRandomNumberGenerator(seed: seed)
        let bytes = [UInt8](data)
        return (0..<count).map { _ in
            var copy = bytes
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                copy[Int.random(in: 0..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if Int.random(in: 0..<4, using: &generator) == 0 && copy.count > 1 {
                let start = Int.random(in: 0..<copy.count, using: &generator)
                let end = min(copy.count, start + Int.random(in: 1...16, using: &generator))
                copy.removeSubrange(start..<end)
            }
            return Data(copy)
        }
    }

    /// Decodes every truncation of `sample` and `mutationCount` seeded mutations of it with `decoder`.
    ///
    /// - Parameters:
    ///   - decoder: The decoder under test; it is called from the calling thread only.
    ///   - sample: A valid image of the decoder's format.
    ///   - mutationCount: How many mutated copies of `sample` to decode, besides every truncation.
    ///   - seed: Seeds the mutations, so a run is reproducible.
    ///   - decode: How to call the decoder; the default calls `ImageDecoding.decode(_:)`. Pass a closure to sweep
    ///     another entry point, e.g. progressive previews.
    public static func run(
        decoder: any ImageDecoding,
        sample: Data,
        mutationCount: Int = 300,
        seed: UInt64 = 0x5EED,
        decode: ((any ImageDecoding, Data) throws -> ImageContainer?)? = nil
    ) -> Report {
        let call = decode ?? { decoder, data in try decoder.decode(data) }
        var report = Report()
        for input in truncations(of: sample) + mutations(of: sample, count: mutationCount, seed: seed) {
            do {
                _ = try call(decoder, input)
                report.decoded += 1
            } catch {
                report.thrown += 1
                report.errorDescriptions.insert(String(describing: error))
            }
        }
        return report
    }
}

/// A small, fast, seedable generator (SplitMix64) for reproducible test inputs. Not for cryptography.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds produce equal sequences.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
