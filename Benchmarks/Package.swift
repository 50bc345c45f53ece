// swift-tools-version: 6.0
// The benchmarks: a separate package so the main build and tests never need benchmark-only libraries.
// Run: swift run -c release --package-path Benchmarks nuke-bench [SECTION] [--quick] [--only NAME]
// (needs `scripts/setup.sh --benchmarks`; without it, the BenchmarkPrerequisites plugin stops the build and says so).
import PackageDescription

let package = Package(
    name: "NukeBenchmarks",
    dependencies: [.package(name: "Nuke", path: "..")],
    targets: [
        .executableTarget(
            name: "nuke-bench",
            dependencies: [
                "CBenchCodecs",
                "BenchReference",
                "CBenchRedis",
                .product(name: "NukeCore", package: "Nuke"),
                .product(name: "DecoderPNG", package: "Nuke"),
                .product(name: "DecoderJPEG", package: "Nuke"),
                .product(name: "DecoderWebP", package: "Nuke"),
                .product(name: "DecoderSVG", package: "Nuke"),
                .product(name: "DecoderGIF", package: "Nuke"),
                .product(name: "DecoderAVIF", package: "Nuke"),
                .product(name: "DecoderHEIF", package: "Nuke"),
                .product(name: "DecoderJXL", package: "Nuke"),
                .product(name: "LoaderCurl", package: "Nuke"),
                .product(name: "LoaderURLSession", package: "Nuke"),
                .product(name: "CacheDisk", package: "Nuke"),
                .product(name: "CacheRedis", package: "Nuke"),
                .product(name: "ColorLCMS", package: "Nuke"),
                // LoopbackHTTPServer serves the scenarios' images on 127.0.0.1.
                .product(name: "NukeTestKit", package: "Nuke"),
            ],
            plugins: ["BenchmarkPrerequisites"]),
        // Stops the build with one sentence naming `scripts/setup.sh --benchmarks` when its libraries are missing.
        .plugin(name: "BenchmarkPrerequisites", capability: .buildTool()),
        // Times one processor as built; `nuke-bench processors` builds it with -c debug and -c release.
        .executableTarget(
            name: "processor-timer", dependencies: [.product(name: "NukeCore", package: "Nuke")]),
        // Reference loops written directly against the C libraries, and libvips' thumbnail.
        // giflib and libavif have no pkg-config flags SwiftPM accepts (none, and -DAVIF_DLL): linked by name, and so
        // are libheif and libjxl (headers on the default include path, as the root package's CHEIF and CJXL take them),
        // and TurboJPEG (CTurboJPEG has no pkgConfig, and no Swift code imports it to use its modulemap's `link`).
        .target(
            name: "CBenchCodecs", dependencies: ["CTurboJPEG", "CVips", "CBenchRSVG", "CBenchWebP"],
            linkerSettings: [
                .linkedLibrary("gif"), .linkedLibrary("avif"), .linkedLibrary("turbojpeg"), .linkedLibrary("heif"),
                .linkedLibrary("jxl"), .linkedLibrary("jxl_threads"),
            ]),
        // hiredis called directly: the reference of the `redis` section's hit read.
        .target(name: "CBenchRedis", linkerSettings: [.linkedLibrary("hiredis")]),
        // libvips and cairo doing the processors' work.
        .target(name: "BenchReference", dependencies: ["CVips", "CCairo"]),
        // No pkgConfig: turbojpeg.h is on the default include path and its .pc file adds no flags, so a build without
        // libturbojpeg0-dev hears the BenchmarkPrerequisites plugin's sentence without a warning about it.
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CBenchRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .systemLibrary(name: "CBenchWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    ],
    swiftLanguageModes: [.v6]
)
