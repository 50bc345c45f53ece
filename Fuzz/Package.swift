// swift-tools-version: 6.0
// The fuzz targets: a separate package (like Benchmarks/) so the main build never links libFuzzer.
// One executable, `nuke-fuzz`, holds every target; `NUKE_FUZZ_TARGET` names the one a run fuzzes.
// Build and run through scripts/fuzz.sh, which builds with `-Xswiftc -sanitize=fuzzer,address` so that the root
// package's modules (our Swift parsers and the codec plugins) are instrumented too.
import PackageDescription

let package = Package(
    name: "NukeFuzz",
    dependencies: [.package(name: "Nuke", path: "..")],
    targets: [
        .executableTarget(
            name: "nuke-fuzz",
            dependencies: [
                .product(name: "NukeCore", package: "Nuke"),
                .product(name: "NukeTestKit", package: "Nuke"),
                .product(name: "DecoderPNG", package: "Nuke"),
                .product(name: "DecoderJPEG", package: "Nuke"),
                .product(name: "DecoderWebP", package: "Nuke"),
                .product(name: "DecoderSVG", package: "Nuke"),
                .product(name: "DecoderGIF", package: "Nuke"),
                .product(name: "DecoderAVIF", package: "Nuke"),
                .product(name: "DecoderJXL", package: "Nuke"),
                .product(name: "DecoderHEIF", package: "Nuke"),
                .product(name: "CacheDisk", package: "Nuke"),
                .product(name: "LoaderCurl", package: "Nuke"),
                .product(name: "LoaderURLSession", package: "Nuke"),
                .product(name: "NukeServe", package: "Nuke"),
            ],
            // libFuzzer supplies `main`: compile as a library, with no entry point of our own.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    ],
    swiftLanguageModes: [.v6]
)
