// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Nuke",
    products: [
        .library(name: "NukeCore", targets: ["NukeCore"]),
        .library(name: "NukeTestKit", targets: ["NukeTestKit"]),
        .library(name: "LoaderCurl", targets: ["LoaderCurl"]),
        .library(name: "LoaderURLSession", targets: ["LoaderURLSession"]),
        .executable(name: "nuke", targets: ["NukeCLI"]),
    ],
    targets: [
        .target(name: "NukeCore"),
        .target(name: "NukeTestKit", dependencies: ["NukeCore"]),
        .executableTarget(name: "NukeCLI", dependencies: ["NukeCore"]),
        .systemLibrary(name: "CLibCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CLibCurl"]),
        .target(name: "LoaderCurl", dependencies: ["NukeCore", "CLibCurl", "CCurlShim"]),
        .target(name: "LoaderURLSession", dependencies: ["NukeCore"]),
        .testTarget(name: "NukeCoreTests", dependencies: ["NukeCore", "NukeTestKit"]),
        .testTarget(name: "NukeTestKitTests", dependencies: ["NukeTestKit", "NukeCore"]),
        .testTarget(name: "LoaderCurlTests", dependencies: ["LoaderCurl", "NukeCore", "NukeTestKit"]),
        .testTarget(name: "LoaderURLSessionTests", dependencies: ["LoaderURLSession", "NukeCore", "NukeTestKit"]),
        .testTarget(
            name: "IntegrationTests", dependencies: ["NukeCore", "NukeTestKit", "LoaderCurl", "LoaderURLSession"]),
    ],
    swiftLanguageModes: [.v6]
)

// Settings shared by every Swift target.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
