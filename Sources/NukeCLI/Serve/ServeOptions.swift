import CacheRedis
import Foundation
import NukeServe

/// The settings of `nuke serve`, from its command line and `NUKE_SERVE_*` environment variables (the command line
/// wins, setting by setting).
struct ServeOptions {
    var port = 8080
    var bind = "127.0.0.1"
    var keyPairs: [URLSigner.KeyPair] = []
    var allowsPrivateSources = false
    var allowedSourceAddresses: [AddressRange] = []
    var allowedSources: [String] = []
    var localRoot: String?
    var cacheDirectory: String?
    /// Redis servers sharing sources and results; several split the keys by consistent hashing.
    var redisURLs: [String] = []
    var maximumSourceBytes = 50 << 20
    var maximumSourcePixels = 50_000_000
    var workers = ProcessInfo.processInfo.activeProcessorCount
    var queue = 256
    var timeToLive = 31_536_000
    var grace = 10
    var timeout = 10
    var processingTimeout = 10
    var maximumAnimationFrames = 1
    var maximumRedirects = 10
    var signatureSize = 32
    /// Megabytes of memory for the three memory tiers together: encoded results (half), processed images and
    /// sources (a quarter each). 0 keeps nothing in memory.
    var memoryCacheMegabytes = 256
    /// `--auto-jxl` / `--enforce-jxl`: whether `Accept` may choose JPEG XL (imgproxy's `IMGPROXY_AUTO_JXL` /
    /// `IMGPROXY_ENFORCE_JXL`); enforcing wins when both are given.
    var jxlDetection = FormatNegotiation.JXLDetection.disabled

    static let flags: Set<String> = ["--allow-private-sources", "--auto-jxl", "--enforce-jxl"]
    static let options: Set<String> = [
        "--port", "--bind", "--key", "--salt", "--allow-source-addresses", "--allowed-sources", "--local-root",
        "--cache-dir", "--redis", "--max-source-bytes", "--max-source-pixels", "--workers", "--queue", "--ttl",
        "--grace", "--timeout", "--processing-timeout", "--max-animation-frames", "--max-redirects",
        "--signature-size", "--memory-cache",
    ]

    /// The environment variable of an option or flag: `--max-source-bytes` → `NUKE_SERVE_MAX_SOURCE_BYTES`.
    static func variable(_ option: String) -> String {
        "NUKE_SERVE_" + option.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// - Throws: ``UsageError`` naming the option (or variable) with a wrong value.
    init(_ arguments: Arguments, environment: [String: String]) throws {
        /// The option's values from the command line, else from its variable (comma-separated where `list`).
        func values(_ option: String, list: Bool = false) -> (values: [String], origin: String)? {
            if let given = arguments.allValues[option], !given.isEmpty {
                return (list ? given.flatMap(Self.splitList) : given, option)
            }
            let name = Self.variable(option)
            guard let text = environment[name], !text.isEmpty else { return nil }
            return (list ? Self.splitList(text) : [text], name)
        }
        func integer(_ option: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let (given, origin) = values(option), let text = given.last else { return nil }
            guard let value = Int(text), range.contains(value) else {
                throw UsageError(
                    "\(origin) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
            }
            return value
        }

        port = try integer("--port", in: 0...65_535) ?? port
        bind = values("--bind")?.values.last ?? bind
        guard IPAddress(bind) != nil else { throw UsageError("--bind needs an IPv4 or IPv6 address, got '\(bind)'") }

        let keys = values("--key", list: arguments.allValues["--key"] == nil)
        let salts = values("--salt", list: arguments.allValues["--salt"] == nil)
        let keyList = keys?.values ?? []
        let saltList = salts?.values ?? []
        guard keyList.count == saltList.count else {
            throw UsageError("give as many salts as keys (\(keyList.count) keys, \(saltList.count) salts)")
        }
        do {
            keyPairs = try zip(keyList, saltList).map { try URLSigner.KeyPair(hexKey: $0, hexSalt: $1) }
        } catch {
            throw UsageError("\(keys?.origin ?? "--key"): \(error)")
        }

        /// Whether the flag is given, else what its variable says (1, true, yes or 0, false, no, empty).
        func flag(_ flag: String) throws -> Bool {
            if arguments.flags.contains(flag) { return true }
            let name = Self.variable(flag)
            guard let text = environment[name] else { return false }
            switch text.lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no", "": return false
            default: throw UsageError("\(name) needs 1 or 0, got '\(text)'")
            }
        }
        allowsPrivateSources = try flag("--allow-private-sources")
        if try flag("--enforce-jxl") {
            jxlDetection = .enforced
        } else if try flag("--auto-jxl") {
            jxlDetection = .enabled
        }
        if let (given, origin) = values("--allow-source-addresses", list: true) {
            allowedSourceAddresses = try given.map { text in
                guard let range = AddressRange(text) else {
                    throw UsageError("\(origin) needs addresses or CIDR ranges (127.0.0.2/32, fd00::/8), got '\(text)'")
                }
                return range
            }
        }
        allowedSources = values("--allowed-sources", list: true)?.values ?? []
        localRoot = values("--local-root")?.values.last
        cacheDirectory = values("--cache-dir")?.values.last
        if let (given, origin) = values("--redis", list: true) {
            for url in given {
                do { _ = try RedisEndpoint(url: url) } catch { throw UsageError("\(origin): \(error)") }
            }
            redisURLs = given
        }
        maximumSourceBytes = try integer("--max-source-bytes", in: 1...Int(Int32.max)) ?? maximumSourceBytes
        maximumSourcePixels = try integer("--max-source-pixels", in: 1...1_000_000_000) ?? maximumSourcePixels
        workers = try integer("--workers", in: 1...1_024) ?? workers
        queue = try integer("--queue", in: 0...1_000_000) ?? queue
        timeToLive = try integer("--ttl", in: 0...315_360_000) ?? timeToLive
        grace = try integer("--grace", in: 0...3_600) ?? grace
        timeout = try integer("--timeout", in: 1...3_600) ?? timeout
        processingTimeout = try integer("--processing-timeout", in: 1...3_600) ?? processingTimeout
        maximumAnimationFrames = try integer("--max-animation-frames", in: 1...10_000) ?? maximumAnimationFrames
        maximumRedirects = try integer("--max-redirects", in: 0...50) ?? maximumRedirects
        signatureSize = try integer("--signature-size", in: 1...32) ?? signatureSize
        memoryCacheMegabytes = try integer("--memory-cache", in: 0...1_048_576) ?? memoryCacheMegabytes
    }

    /// The bytes of each memory tier: encoded results get half of ``memoryCacheMegabytes``, processed images and
    /// sources a quarter each.
    var memoryTiers: (results: Int, images: Int, sources: Int) {
        let total = memoryCacheMegabytes << 20
        return (total / 2, total / 4, total / 4)
    }

    static func splitList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
