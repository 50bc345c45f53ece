import Foundation
import PackagePlugin

/// Stops the benchmark's build, before anything compiles, when a library that only the benchmarks use is not
/// installed: one error that names the command installing them, instead of a compiler's "'turbojpeg.h' file not
/// found" (and SwiftPM's pkg-config warnings) further on.
@main
struct BenchmarkPrerequisites: BuildToolPlugin {
    /// A header of each benchmark-only Debian package (scripts/setup.sh's `benchmark_packages`), under an include
    /// folder.
    static let headers = ["turbojpeg.h", "vips/vips.h", "cairo/cairo.h"]
    static let includeFolders = ["/usr/include", "/usr/local/include"]

    struct MissingPackages: Error, CustomStringConvertible {
        let headers: [String]
        var description: String {
            "the benchmarks need libraries that are not installed (no \(headers.joined(separator: ", "))): "
                + "run `scripts/setup.sh --benchmarks` first"
        }
    }

    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let missing = Self.headers.filter { header in
            !Self.includeFolders.contains { FileManager.default.fileExists(atPath: "\($0)/\(header)") }
        }
        guard missing.isEmpty else { throw MissingPackages(headers: missing) }
        return []
    }
}
