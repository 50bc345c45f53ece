import Foundation

/// One fuzz target: a name for `NUKE_FUZZ_TARGET` and scripts/fuzz.sh, and the body that feeds it one input.
///
/// Adding a target is one entry in ``all`` (and, for its seeds and dictionary, a `Fuzz/corpus/<name>/` folder
/// and an optional `Fuzz/dictionaries/<name>.dict`).
struct FuzzTarget: Sendable {
    let name: String
    /// Runs once before the first input (for example to create a directory or a pipeline).
    var setUp: (@Sendable () -> Void)?
    let run: @Sendable (Data) -> Void

    init(_ name: String, setUp: (@Sendable () -> Void)? = nil, run: @escaping @Sendable (Data) -> Void) {
        self.name = name
        self.setUp = setUp
        self.run = run
    }

    /// Every target, one per input that crosses a trust boundary.
    static let all: [FuzzTarget] = [
        // Each decoder plugin: the header/size probe, a full decode, a thumbnail decode, a preview of a prefix.
        FuzzTarget("png", run: DecoderTargets.png),
        FuzzTarget("jpeg", run: DecoderTargets.jpeg),
        FuzzTarget("webp", run: DecoderTargets.webp),
        FuzzTarget("svg", run: DecoderTargets.svg),
        FuzzTarget("gif", run: DecoderTargets.gif),
        FuzzTarget("avif", run: DecoderTargets.avif),
        FuzzTarget("jxl", run: DecoderTargets.jxl),
        FuzzTarget("heif", run: DecoderTargets.heif),
        // The Swift parsers in front of the codecs and loaders.
        FuzzTarget("asset-type", run: ParserTargets.assetType),
        FuzzTarget("jpeg-markers", run: ParserTargets.jpegMarkers),
        FuzzTarget("data-url", run: ParserTargets.dataURL),
        FuzzTarget("http-headers", run: ParserTargets.httpHeaders),
        FuzzTarget("http-cache", run: ParserTargets.httpCache),
        // nuke serve's request paths, from anyone on the internet: the URL grammar, the geometry of its options,
        // the source policy, signatures, Accept and If-None-Match.
        FuzzTarget("serve-url", run: ServeTargets.url),
        // DataCache's files, written by another process or damaged on disk.
        FuzzTarget("cache-entry", setUp: CacheTargets.setUp, run: CacheTargets.entry),
        FuzzTarget("cache-journal", setUp: CacheTargets.setUp, run: CacheTargets.journal),
        // The pipeline end to end: a loader serving the bytes, decode, a processor chain.
        FuzzTarget("pipeline", setUp: PipelineTarget.setUp, run: PipelineTarget.run),
    ]

    /// The target this process runs (set by `LLVMFuzzerInitialize`).
    nonisolated(unsafe) static var selected: FuzzTarget?
}

/// Reads the fuzzer's bytes as a sequence of small choices followed by a payload.
struct FuzzInput {
    private(set) var data: Data

    init(_ data: Data) { self.data = data }

    /// The next byte (0 when the input is used up).
    mutating func byte() -> UInt8 {
        guard let first = data.first else { return 0 }
        data = data.dropFirst()
        return first
    }

    /// The next `count` bytes (fewer if the input ends).
    mutating func bytes(_ count: Int) -> Data {
        let prefix = data.prefix(count)
        data = data.dropFirst(prefix.count)
        return Data(prefix)
    }
}
