// swift-tools-version: 6.0
// The benchmarks: a separate package so that the root build and tests never need libvips or cairo.
// Run with `swift run -c release --package-path Benchmarks nuke-bench` (needs `scripts/setup.sh --benchmarks`).
import PackageDescription

let package = Package(
    name: "NukeBenchmarks",
    products: [
        .executable(name: "nuke-bench", targets: ["NukeBench"])
    ],
    dependencies: [
        .package(name: "Nuke", path: "..")
    ],
    targets: [
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        .target(name: "BenchReference", dependencies: ["CVips", "CCairo"]),
        .executableTarget(
            name: "NukeBench",
            dependencies: ["BenchReference", .product(name: "NukeCore", package: "Nuke")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
