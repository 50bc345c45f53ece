// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Nuke",
    products: [
        .library(name: "NukeCore", targets: ["NukeCore"]),
        .library(name: "NukeTestKit", targets: ["NukeTestKit"]),
        .library(name: "CacheDisk", targets: ["CacheDisk"]),
        .executable(name: "nuke", targets: ["NukeCLI"]),
    ],
    targets: [
        .target(name: "NukeCore"),
        .target(name: "NukeTestKit", dependencies: ["NukeCore"]),
        .executableTarget(name: "NukeCLI", dependencies: ["NukeCore"]),
        .testTarget(name: "NukeCoreTests", dependencies: ["NukeCore", "NukeTestKit"]),
        .testTarget(name: "NukeTestKitTests", dependencies: ["NukeTestKit", "NukeCore"]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),
        .target(name: "CacheDisk", dependencies: ["NukeCore", "CCrypto", "CXXHash"]),
        .executableTarget(
            name: "CacheDiskTestWriter", dependencies: ["CacheDisk"], path: "Tests/CacheDiskTestWriter"),
        .testTarget(
            name: "CacheDiskTests", dependencies: ["CacheDisk", "NukeCore", "NukeTestKit", "CacheDiskTestWriter"]),
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
