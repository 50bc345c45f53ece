// swift-tools-version: 6.3
// An app as a third-party developer makes it: `swift package init --type executable` (tools 6.3, Swift 6 mode),
// default main-actor isolation, and a path dependency on this workspace, linking only NukeCore, LoaderCurl and
// DecoderPNG, with a loader and a decoder of its own written as Plugins.md shows. scripts/check-third-party-app.sh
// builds it with a pkg-config search path that hides the libraries it doesn't use and fails on any warning.
import PackageDescription

let package = Package(
    name: "ThirdPartyApp",
    dependencies: [.package(name: "Nuke", path: "../..")],
    targets: [
        .executableTarget(
            name: "ThirdPartyApp",
            dependencies: [
                .product(name: "NukeCore", package: "Nuke"),
                .product(name: "LoaderCurl", package: "Nuke"),
                .product(name: "DecoderPNG", package: "Nuke"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
        .testTarget(
            name: "ThirdPartyAppTests",
            dependencies: [
                "ThirdPartyApp",
                .product(name: "NukeCore", package: "Nuke"),
                .product(name: "DecoderPNG", package: "Nuke"),
                .product(name: "LoaderCurl", package: "Nuke"),
                .product(name: "NukeTestKit", package: "Nuke"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
