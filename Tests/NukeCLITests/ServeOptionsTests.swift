import NukeServe
import Testing

@testable import NukeCLI

/// `nuke serve`'s settings from its command line and `NUKE_SERVE_*` variables.
@Suite struct ServeOptionsTests {
    static func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeOptions {
        try ServeOptions(
            Arguments(arguments, flags: ServeOptions.flags, options: ServeOptions.options), environment: environment)
    }

    @Test func defaults() throws {
        let options = try Self.parse([])

        #expect(options.port == 8080 && options.bind == "127.0.0.1")
        #expect(options.keyPairs.isEmpty && !options.allowsPrivateSources && options.allowedSourceAddresses.isEmpty)
        #expect(options.maximumSourceBytes == 50 << 20 && options.maximumSourcePixels == 50_000_000)
        #expect(options.queue == 256 && options.timeToLive == 31_536_000 && options.grace == 10)
        #expect(options.timeout == 10 && options.signatureSize == 32)
        #expect(
            options.processingTimeout == 10 && options.maximumAnimationFrames == 1 && options.maximumRedirects == 10)
        #expect(options.memoryCacheMegabytes == 256)
        #expect(options.memoryTiers == (results: 128 << 20, images: 64 << 20, sources: 64 << 20))
    }

    @Test func everyOptionReadsItsVariableAndTheCommandLineWins() throws {
        let environment = [
            "NUKE_SERVE_PORT": "9000", "NUKE_SERVE_BIND": "::1", "NUKE_SERVE_KEY": "0a0b,0c0d",
            "NUKE_SERVE_SALT": "01,02", "NUKE_SERVE_ALLOW_PRIVATE_SOURCES": "1",
            "NUKE_SERVE_ALLOW_SOURCE_ADDRESSES": "127.0.0.2/32, 10.1.0.0/16",
            "NUKE_SERVE_ALLOWED_SOURCES": "https://a.example/,https://b.example/", "NUKE_SERVE_LOCAL_ROOT": "/srv",
            "NUKE_SERVE_CACHE_DIR": "/var/cache/nuke",
            "NUKE_SERVE_REDIS": "redis://127.0.0.1:6379, redis://127.0.0.2:6380",
            "NUKE_SERVE_MAX_SOURCE_BYTES": "1000", "NUKE_SERVE_MAX_SOURCE_PIXELS": "2000", "NUKE_SERVE_WORKERS": "3",
            "NUKE_SERVE_QUEUE": "4", "NUKE_SERVE_TTL": "60", "NUKE_SERVE_GRACE": "5", "NUKE_SERVE_TIMEOUT": "7",
            "NUKE_SERVE_SIGNATURE_SIZE": "8", "NUKE_SERVE_PROCESSING_TIMEOUT": "9",
            "NUKE_SERVE_MAX_ANIMATION_FRAMES": "50", "NUKE_SERVE_MAX_REDIRECTS": "3", "NUKE_SERVE_MEMORY_CACHE": "0",
        ]

        let fromEnvironment = try Self.parse([], environment: environment)
        let overridden = try Self.parse(
            [
                "--port", "9001", "--key", "aa", "--salt", "bb", "--workers=7", "--allowed-sources",
                "https://c.example/",
            ],
            environment: environment)

        #expect(fromEnvironment.port == 9000 && fromEnvironment.bind == "::1")
        #expect(fromEnvironment.keyPairs.map(\.key) == [[0x0a, 0x0b], [0x0c, 0x0d]])
        #expect(fromEnvironment.keyPairs.map(\.salt) == [[0x01], [0x02]])
        #expect(fromEnvironment.allowsPrivateSources)
        #expect(fromEnvironment.allowedSourceAddresses.map(\.description) == ["127.0.0.2/32", "10.1.0.0/16"])
        #expect(fromEnvironment.allowedSources == ["https://a.example/", "https://b.example/"])
        #expect(fromEnvironment.localRoot == "/srv" && fromEnvironment.cacheDirectory == "/var/cache/nuke")
        #expect(fromEnvironment.redisURLs == ["redis://127.0.0.1:6379", "redis://127.0.0.2:6380"])
        #expect(fromEnvironment.maximumSourceBytes == 1000 && fromEnvironment.maximumSourcePixels == 2000)
        #expect(fromEnvironment.workers == 3 && fromEnvironment.queue == 4)
        #expect(fromEnvironment.timeToLive == 60 && fromEnvironment.grace == 5)
        #expect(fromEnvironment.timeout == 7 && fromEnvironment.signatureSize == 8)
        #expect(fromEnvironment.processingTimeout == 9 && fromEnvironment.maximumAnimationFrames == 50)
        #expect(fromEnvironment.maximumRedirects == 3)
        #expect(fromEnvironment.memoryCacheMegabytes == 0 && fromEnvironment.memoryTiers == (0, 0, 0))
        #expect(overridden.port == 9001 && overridden.workers == 7)
        #expect(overridden.keyPairs.map(\.key) == [[0xaa]])
        #expect(overridden.allowedSources == ["https://c.example/"])
        #expect(overridden.queue == 4)
    }

    @Test(
        arguments: [
            ([], [:], FormatNegotiation.JXLDetection.disabled),
            (["--auto-jxl"], [:], .enabled),
            (["--enforce-jxl"], [:], .enforced),
            (["--auto-jxl", "--enforce-jxl"], [:], .enforced),
            ([], ["NUKE_SERVE_AUTO_JXL": "1"], .enabled),
            ([], ["NUKE_SERVE_ENFORCE_JXL": "true", "NUKE_SERVE_AUTO_JXL": "1"], .enforced),
            ([], ["NUKE_SERVE_AUTO_JXL": "0"], .disabled),
            (["--auto-jxl"], ["NUKE_SERVE_AUTO_JXL": "0"], .enabled),
        ] as [([String], [String: String], FormatNegotiation.JXLDetection)])
    func jxlDetectionFromFlagsAndVariables(
        _ arguments: [String], _ environment: [String: String], _ expected: FormatNegotiation.JXLDetection
    ) throws {
        #expect(try Self.parse(arguments, environment: environment).jxlDetection == expected)
    }

    @Test func repeatedKeysPairWithTheirSalts() throws {
        let options = try Self.parse(["--key", "01", "--salt", "02", "--key", "03", "--salt", "04"])
        #expect(options.keyPairs.map(\.key) == [[1], [3]] && options.keyPairs.map(\.salt) == [[2], [4]])
    }

    @Test(
        arguments: [
            (["--port", "70000"], [:], "--port needs a whole number from 0 to 65535, got '70000'"),
            ([], ["NUKE_SERVE_WORKERS": "many"], "NUKE_SERVE_WORKERS needs a whole number from 1 to 1024, got 'many'"),
            (["--bind", "localhost"], [:], "--bind needs an IPv4 or IPv6 address, got 'localhost'"),
            (["--key", "aa"], [:], "give as many salts as keys (1 keys, 0 salts)"),
            (["--key", "xx", "--salt", "aa"], [:], "--key: the key must be non-empty hex"),
            ([], ["NUKE_SERVE_ALLOW_PRIVATE_SOURCES": "maybe"], "NUKE_SERVE_ALLOW_PRIVATE_SOURCES needs 1 or 0"),
            ([], ["NUKE_SERVE_ENFORCE_JXL": "on"], "NUKE_SERVE_ENFORCE_JXL needs 1 or 0, got 'on'"),
            (["--allow-source-addresses", "127.0.0.2/40"], [:], "--allow-source-addresses needs addresses or CIDR"),
            ([], ["NUKE_SERVE_REDIS": "redis://a:1,http://b"], "NUKE_SERVE_REDIS: "),
        ] as [([String], [String: String], String)])
    func wrongValuesNameTheirOption(_ arguments: [String], _ environment: [String: String], _ message: String) {
        #expect {
            try Self.parse(arguments, environment: environment)
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
