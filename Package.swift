// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Nuke",
    products: [
        .library(name: "NukeCore", targets: ["NukeCore"]),
        .library(name: "NukeTestKit", targets: ["NukeTestKit"]),
        .library(name: "DecoderPNG", targets: ["DecoderPNG"]),
        .library(name: "DecoderJPEG", targets: ["DecoderJPEG"]),
        .library(name: "DecoderWebP", targets: ["DecoderWebP"]),
        .library(name: "DecoderSVG", targets: ["DecoderSVG"]),
        .library(name: "DecoderGIF", targets: ["DecoderGIF"]),
        .library(name: "DecoderAVIF", targets: ["DecoderAVIF"]),
        .library(name: "DecoderJXL", targets: ["DecoderJXL"]),
        .library(name: "DecoderHEIF", targets: ["DecoderHEIF"]),
        .library(name: "CacheDisk", targets: ["CacheDisk"]),
        .library(name: "CacheRedis", targets: ["CacheRedis"]),
        .library(name: "LoaderCurl", targets: ["LoaderCurl"]),
        .library(name: "LoaderURLSession", targets: ["LoaderURLSession"]),
        .library(name: "NukeServe", targets: ["NukeServe"]),
        .library(name: "ServeMicroHTTPD", targets: ["ServeMicroHTTPD"]),
        .library(name: "ColorLCMS", targets: ["ColorLCMS"]),
        .library(name: "Nuke", targets: ["Nuke"]),
        .executable(name: "nuke", targets: ["NukeCLI"]),
    ],
    targets: [
        // No system-library target has `pkgConfig`: SwiftPM reads the .pc file of every system-library target in the
        // package graph, also of those an app doesn't link, and warns about each one it can't find ("you may be able
        // to install libjpeg using your system-packager") in every build of every package that depends on this one
        // (scripts/check-third-party-app.sh checks that an app linking a few plugins hears nothing). Debian's -dev
        // packages put the headers on the default include path, each module.modulemap links its libraries by name,
        // and each shim header that includes a library's header turns a missing one into one `#error` naming the
        // Debian package. `providers` only documents that package.
        //
        // The per-pixel loops of resize and blur, in C so that they stay fast in an app's debug build (see
        // Sources/CNukeKernels/include/CNukeKernels.h). Plain C, no library: NukeCore still links no C library.
        .target(name: "CNukeKernels"),
        .target(name: "NukeCore", dependencies: ["CNukeKernels"]),
        .target(name: "NukeTestKit", dependencies: ["NukeCore"]),
        .target(
            name: "Nuke",
            dependencies: [
                "NukeCore", "LoaderCurl", "LoaderURLSession", "CacheDisk", "DecoderPNG", "DecoderJPEG", "DecoderWebP",
                "DecoderSVG", "DecoderGIF", "DecoderAVIF", "DecoderJXL",
                "DecoderHEIF",
                "ColorLCMS",
            ]),
        .executableTarget(
            name: "NukeCLI", dependencies: ["Nuke", "LoaderURLSession", "CacheRedis", "NukeServe", "ServeMicroHTTPD"]),
        .systemLibrary(name: "CLibCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CCurlShim", dependencies: ["CLibCurl"]),
        .target(name: "LoaderCurl", dependencies: ["NukeCore", "CLibCurl", "CCurlShim"]),
        .target(name: "LoaderURLSession", dependencies: ["NukeCore"]),
        .testTarget(name: "NukeCoreTests", dependencies: ["NukeCore", "NukeTestKit"]),

        // Codecs: each C library is a system-library target; CJPEGShim keeps libjpeg's setjmp/longjmp in C.
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .target(name: "DecoderPNG", dependencies: ["NukeCore", "CPNG"]),
        .testTarget(
            name: "DecoderPNGTests", dependencies: ["DecoderPNG", "NukeCore", "NukeTestKit"],
            resources: [.copy("Fixtures")]),
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // Swift imports only CJPEGShim, so CJPEG's modulemap `link` never reaches the linker: the shim names libjpeg.
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], linkerSettings: [.linkedLibrary("jpeg")]),
        .target(name: "DecoderJPEG", dependencies: ["NukeCore", "CJPEGShim"]),
        .testTarget(
            name: "DecoderJPEGTests", dependencies: ["DecoderJPEG", "NukeCore", "NukeTestKit"],
            resources: [.copy("Fixtures")]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .target(name: "DecoderWebP", dependencies: ["NukeCore", "CWebP"]),
        .testTarget(
            name: "DecoderWebPTests", dependencies: ["DecoderWebP", "NukeCore", "NukeTestKit"],
            resources: [.copy("Fixtures")]),
        // librsvg's pkg-config flags include -pthread (from GLib's gmodule), which SwiftPM prohibits in a dependency,
        // and its headers need GLib's and cairo's include folders: CRSVG/shim.h declares what DecoderSVG calls.
        .systemLibrary(name: "CRSVG", providers: [.apt(["librsvg2-dev"])]),
        .target(name: "DecoderSVG", dependencies: ["NukeCore", "CRSVG"]),
        .testTarget(name: "DecoderSVGTests", dependencies: ["DecoderSVG", "NukeCore", "NukeTestKit"]),
        // Debian's libgif-dev has no pkg-config file anyway. CGIFShim reads record by record and composites frames
        // in C.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .target(name: "CGIFShim", dependencies: ["CGIF"]),
        .target(name: "DecoderGIF", dependencies: ["NukeCore", "CGIF", "CGIFShim"]),
        .testTarget(
            name: "DecoderGIFTests", dependencies: ["DecoderGIF", "NukeCore", "NukeTestKit"],
            resources: [.copy("Fixtures")]),
        // libavif decodes AV1 with dav1d and encodes with libaom (Debian's build); CAVIFShim converts to
        // premultiplied RGBA and applies irot/imir in C. libavif's pkg-config flags include -DAVIF_DLL, which SwiftPM
        // prohibits in a dependency (it only matters on Windows).
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        .target(name: "CAVIFShim", dependencies: ["CAVIF"]),
        .target(name: "DecoderAVIF", dependencies: ["NukeCore", "CAVIF", "CAVIFShim"]),
        .testTarget(
            name: "DecoderAVIFTests", dependencies: ["DecoderAVIF", "NukeCore", "NukeTestKit", "CAVIF"],
            resources: [.copy("Fixtures")]),
        // libjxl decodes and encodes JPEG XL on the calling thread (no libjxl_threads runner); every call Swift makes
        // is a plain function, so there is no shim.
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        .target(name: "DecoderJXL", dependencies: ["NukeCore", "CJXL"]),
        .testTarget(
            name: "DecoderJXLTests", dependencies: ["DecoderJXL", "NukeCore", "NukeTestKit", "CJXL"],
            resources: [.copy("Fixtures")]),
        // libheif decodes HEVC with libde265 (Debian's build) and applies irot/imir/clap itself; CHEIFShim copies
        // its RGBA plane into our layout and reads the colour profile.
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
        .target(name: "CHEIFShim", dependencies: ["CHEIF"]),
        .target(name: "DecoderHEIF", dependencies: ["NukeCore", "CHEIF", "CHEIFShim"]),
        .testTarget(
            name: "DecoderHEIFTests", dependencies: ["DecoderHEIF", "NukeCore", "NukeTestKit"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "NukeCore", "NukeTestKit", "DecoderPNG", "DecoderJPEG", "DecoderWebP", "DecoderSVG", "DecoderGIF",
                "DecoderAVIF", "LoaderCurl",
                "LoaderURLSession", "CacheDisk",
                "DecoderHEIF",
            ]),
        .testTarget(name: "NukeTestKitTests", dependencies: ["NukeTestKit", "NukeCore"]),
        .testTarget(name: "NukeTests", dependencies: ["Nuke", "NukeTestKit"]),
        // App-style code against Nuke's public API (see Tests/NukeCompatibilityTests/ChecklistCoverageTests.swift).
        .testTarget(name: "NukeCompatibilityTests", dependencies: ["Nuke", "NukeTestKit"]),
        // Runs the built `nuke` binary; depending on the executable target makes `swift test` build it.
        .testTarget(name: "NukeCLITests", dependencies: ["NukeCLI", "Nuke", "NukeTestKit"]),
        .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CXXHash", providers: [.apt(["libxxhash-dev"])]),
        .target(name: "CacheDisk", dependencies: ["NukeCore", "CCrypto", "CXXHash"]),
        // A cache shared by a fleet: Redis through hiredis (blocking API, a pool per server).
        // hiredis's pkg-config flags carry -D_FILE_OFFSET_BITS=64, which SwiftPM prohibits in a dependency.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(name: "CacheRedis", dependencies: ["NukeCore", "CHiredis", "CXXHash"]),
        .testTarget(
            name: "CacheRedisTests", dependencies: ["CacheRedis", "CacheDisk", "LoaderCurl", "NukeCore", "NukeTestKit"]),
        .executableTarget(
            name: "CacheDiskTestWriter", dependencies: ["CacheDisk"], path: "Tests/CacheDiskTestWriter"),
        .testTarget(
            name: "CacheDiskTests", dependencies: ["CacheDisk", "NukeCore", "NukeTestKit", "CacheDiskTestWriter"]),
        // `nuke serve`'s service without sockets: the imgproxy URL grammar, signing (HMAC-SHA256 on libcrypto), source
        // policy, format negotiation and responses, over an ImagePipeline; a transport target serves it over HTTP.
        .target(name: "NukeServe", dependencies: ["NukeCore", "CCrypto"]),
        .testTarget(
            name: "NukeServeTests",
            dependencies: [
                "NukeServe", "NukeCore", "NukeTestKit", "LoaderCurl", "DecoderPNG", "DecoderJPEG", "DecoderWebP",
                "DecoderGIF", "DecoderAVIF", "DecoderJXL", "ColorLCMS",
            ]),
        // nuke serve's HTTP transport: NukeServe's handler behind libmicrohttpd (epoll thread pool, suspend/resume).
        // No pkgConfig: CMicroHTTPD links `microhttpd` by name and includes <microhttpd.h> from the system include
        // path; CMicroHTTPDShim makes the variadic calls (MHD_start_daemon, MHD_get_connection_info).
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CMicroHTTPDShim", dependencies: ["CMicroHTTPD"]),
        .target(name: "ServeMicroHTTPD", dependencies: ["NukeServe", "CMicroHTTPD", "CMicroHTTPDShim"]),
        // Starts and stops servers in a process of its own and reports its descriptor count (the leak test).
        .executableTarget(
            name: "ServeMicroHTTPDTestCycler", dependencies: ["ServeMicroHTTPD", "NukeServe"],
            path: "Tests/ServeMicroHTTPDTestCycler"),
        .testTarget(
            name: "ServeMicroHTTPDTests",
            dependencies: [
                "ServeMicroHTTPD", "NukeServe", "LoaderCurl", "NukeTestKit", "ServeMicroHTTPDTestCycler",
            ]),
        .testTarget(name: "LoaderCurlTests", dependencies: ["LoaderCurl", "NukeCore", "NukeTestKit"]),
        .testTarget(name: "LoaderURLSessionTests", dependencies: ["LoaderURLSession", "NukeCore", "NukeTestKit"]),
        // Colour management: embedded ICC profiles (and CICP descriptions) converted to sRGB with lcms2. CLCMS2Shim
        // builds lcms2's pixel formats, which are function-like macros.
        .systemLibrary(name: "CLCMS2", providers: [.apt(["liblcms2-dev"])]),
        .target(name: "CLCMS2Shim", dependencies: ["CLCMS2"]),
        .target(name: "ColorLCMS", dependencies: ["NukeCore", "CLCMS2", "CLCMS2Shim"]),
        // The codecs' profiles through a pipeline, compared with lcms2's transicc on the same pixels.
        .testTarget(
            name: "ColorLCMSTests",
            dependencies: [
                "ColorLCMS", "NukeCore", "NukeTestKit", "DecoderJPEG", "DecoderPNG", "DecoderWebP", "DecoderAVIF",
                "DecoderJXL",
            ],
            resources: [.copy("Fixtures")]),
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
