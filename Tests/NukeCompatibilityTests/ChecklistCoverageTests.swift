import Foundation
import Testing

/// Checks that every platform-independent declaration of Nuke's public API checklist is used by name somewhere in
/// this target, so a declaration added to Nuke without a compatibility use shows up. The checklist lives outside
/// the repository (`../shared/nuke-api/nuke-public-api.txt`); where it isn't reachable (CI) the test does nothing.
@Suite struct ChecklistCoverageTests {
    /// Names that say nothing about app code, or that the checklist lists only for Apple platforms' sake.
    private static let excluded: Set<String> = [
        "==", "<", "hash", "description", "init", "rawValue", "lhs",  // conformances and initialisers (checked by type)
        "utType", "makeThumbnail",  // Apple-only or added separately (see the brief)
        "isHEIFPreferred",  // used, but HEIF has no encoder on Linux
    ]

    /// Apple-only lines: a UIKit/AppKit/ImageIO/CoreImage name or an Apple-only `#if` condition.
    private static let appleOnlyMarkers = [
        "UIImage", "UIColor", "NSImage", "NSColor", "CIFilter", "CIImage", "CIContext", "UTType", "ImageIO",
        "os(iOS)", "os(macOS)", "canImport(UIKit)", "URLSessionDelegate", "CoreImageFilter", "coreImageFilter",
        "Publisher",
    ]

    @Test func everyChecklistNameIsUsed() throws {
        // Given the checklist, if reachable from the package root
        let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()
        let checklist = root.appendingPathComponent("../shared/nuke-api/nuke-public-api.txt").standardizedFileURL
        guard let text = try? String(contentsOf: checklist, encoding: .utf8) else { return }

        // When
        let names = Set(
            text.split(separator: "\n").map(String.init)
                .filter { line in !Self.appleOnlyMarkers.contains { line.contains($0) } }
                .compactMap(Self.declaredName))
        let sources = try sourcesOfThisTarget(in: testsDirectory)

        // Then
        let missing = names.subtracting(Self.excluded).filter { !sources.contains($0) }.sorted()
        #expect(
            missing.isEmpty, "Checklist declarations without a compatibility use: \(missing.joined(separator: ", "))")
    }

    /// The identifier a checklist line declares: the name after `func`/`var`/`let`/`case`/a type keyword.
    static func declaredName(_ line: String) -> String? {
        let keywords = [
            "func", "var", "let", "case", "class", "struct", "enum", "protocol", "actor", "typealias", "subscript",
        ]
        let tokens = line.split(whereSeparator: { $0 == " " || $0 == "(" || $0 == ":" || $0 == "<" || $0 == "=" })
        guard let index = tokens.lastIndex(where: { keywords.contains(String($0)) }), index + 1 < tokens.count else {
            return tokens.contains("subscript") ? nil : nil
        }
        let name = tokens[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        return name.first.map { $0.isLetter || $0 == "_" } == true ? name : nil
    }

    private func sourcesOfThisTarget(in directory: URL) throws -> String {
        let files =
            FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter {
                $0.pathExtension == "swift" && $0.lastPathComponent != "ChecklistCoverageTests.swift"
            } ?? []
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }
}
