public import Foundation
public import NukeCore

/// A conformance suite for `ImageDecoding`: checks that a decoder plugin keeps the protocol's
/// contract — it decodes its samples to the right size, its factory matches its own format and declines
/// unrelated data, and bad input gets an error or an image its header accounts for, never a crash, an absurd
/// allocation or a made-up image:
///
/// - empty data, and garbage with no valid header (text, random bytes, zeros, a sample whose first bytes are
///   zeroed), decoded by the decoder made for a sample: an error (or an empty image), never a picture;
/// - a truncated sample, and a preview of a partial one: an error or an image no larger than the whole file
///   decodes to (its header's size);
/// - corrupted samples (bytes changed anywhere, headers included): an error or an image of sane size.
///
/// Partial data is safe, and one instance is safe to use from several threads.
///
/// Swift Testing can't export `@Test`s, so each check is a function that throws a ``Failure``:
///
/// ```swift
/// let conformance = ImageDecodingConformance(
///     makeDecoder: { MyDecoder(context: $0) },
///     samples: [.init(name: "small", data: sampleData, width: 16, height: 8)])
///
/// @Test(arguments: conformance.checks)
/// func myDecoderConforms(_ check: ImageDecodingConformance.Check) throws {
///     try conformance.run(check)
/// }
/// ```
///
/// A crash in the decoder ends the test process: that, too, is a failed conformance run.
public struct ImageDecodingConformance: Sendable {
    /// A valid file of the decoder's format and the size it decodes to.
    public struct Sample: Sendable {
        /// A name for failure messages.
        public var name: String
        /// The file's bytes.
        public var data: Data
        /// The expected pixel width.
        public var width: Int
        /// The expected pixel height.
        public var height: Int

        /// Creates a sample.
        public init(name: String, data: Data, width: Int, height: Int) {
            self.name = name
            self.data = data
            self.width = width
            self.height = height
        }
    }

    /// One check of the suite.
    public struct Check: Sendable, CustomStringConvertible {
        /// A short identifier, e.g. `"rejectsEmptyData"`.
        public let name: String
        let body: @Sendable (ImageDecodingConformance) throws -> Void

        public var description: String { name }
    }

    /// A violated expectation.
    public struct Failure: Error, CustomStringConvertible {
        /// The ``Check/name`` of the check that failed.
        public let check: String
        /// What went wrong.
        public let message: String

        public var description: String { "ImageDecodingConformance.\(check): \(message)" }
    }

    /// The decoder factory under test, as registered with `ImageDecoderRegistry`.
    public let makeDecoder: @Sendable (ImageDecodingContext) -> (any ImageDecoding)?
    /// Valid files of the decoder's format.
    public let samples: [Sample]
    /// Data the factory must decline (default: text and random bytes).
    public let unrelatedData: [Data]
    /// How many seeded mutations of each sample to decode (default 200).
    public let mutationCount: Int

    /// Creates a suite. `samples` must not be empty.
    public init(
        makeDecoder: @escaping @Sendable (ImageDecodingContext) -> (any ImageDecoding)?,
        samples: [Sample],
        unrelatedData: [Data]? = nil,
        mutationCount: Int = 200
    ) {
        precondition(!samples.isEmpty, "ImageDecodingConformance needs at least one sample")
        self.makeDecoder = makeDecoder
        self.samples = samples
        var generator = SeededRandomNumberGenerator(seed: 7)
        self.unrelatedData =
            unrelatedData ?? [
                Data("hello, this is not an image".utf8),
                Data((0..<256).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            ]
        self.mutationCount = mutationCount
    }

    /// Every check, in a fixed order.
    public var checks: [Check] { Self.allChecks }

    /// Runs one check. - Throws: A ``Failure`` for the first violated expectation.
    public func run(_ check: Check) throws {
        try check.body(self)
    }

    /// Runs every check. - Throws: The first ``Failure``.
    public func runAll() throws {
        for check in checks { try run(check) }
    }

    func decoder(for sample: Sample, check: String) throws -> any ImageDecoding {
        let context = ImageDecodingContext(request: ImageRequest(url: nil), data: sample.data)
        guard let decoder = makeDecoder(context) else {
            throw Failure(check: check, message: "the factory returned no decoder for sample '\(sample.name)'")
        }
        return decoder
    }

    /// Inputs with no valid header: text, seeded random bytes, zeros, and `sample` with its first bytes (where
    /// every format keeps its signature and header) zeroed.
    func garbage(comparedTo sample: Sample) -> [(name: String, data: Data)] {
        var generator = SeededRandomNumberGenerator(seed: 0x6A4B)
        var headerless = sample.data
        headerless.replaceSubrange(
            headerless.startIndex..<(headerless.startIndex + min(16, headerless.count)),
            with: Data(count: min(16, headerless.count)))
        return [
            ("text", Data("This is plain text, not an image. 0123456789 abcdefghij".utf8)),
            ("4 KB of random bytes", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })),
            ("4 KB of zeros", Data(count: 4096)),
            ("'\(sample.name)' with its first 16 bytes zeroed", headerless),
        ]
    }

    /// `true` if `container`'s image is no larger than the whole sample decodes to: what a truncated file or a
    /// preview may produce (its header says the sample's size; anything larger was made up).
    func fits(_ container: ImageContainer, in sample: Sample) -> Bool {
        container.image.width <= sample.width && container.image.height <= sample.height
    }

    /// The largest image a corrupted sample may decode to: anything bigger means a header was trusted blindly.
    func isSane(_ container: ImageContainer, comparedTo sample: Sample) -> Bool {
        let limit = max(sample.width * sample.height * 64, 1 << 20)
        return container.image.width >= 0 && container.image.height >= 0
            && container.image.width.multipliedReportingOverflow(by: container.image.height).partialValue <= limit
    }
}
