import Foundation

/// Code that a document shows and a test compiles: a test file marks it with `// NAME-BEGIN` and `// NAME-END`
/// lines, and its test checks that the document still shows exactly those lines.
///
/// ```swift
/// let readme = try DocumentedSnippet.document("README.md")
/// #expect(readme.contains("```swift\n\(try DocumentedSnippet.code("README-TOUR"))\n```"))
/// ```
public enum DocumentedSnippet {
    /// A marker or a document that isn't there.
    public struct Missing: Error, CustomStringConvertible {
        /// What is missing, and where it was looked for.
        public let description: String
    }

    /// The lines between `// <marker>-BEGIN` and `// <marker>-END` in `file` (by default the calling test's own
    /// source file), less the indentation of the `BEGIN` line, joined with newlines.
    public static func code(_ marker: String, in file: String = #filePath) throws -> String {
        let lines = try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// \(marker)-BEGIN") }),
            let end = lines[begin...].firstIndex(where: { $0.hasSuffix("// \(marker)-END") })
        else {
            throw Missing(description: "no // \(marker)-BEGIN … // \(marker)-END lines in \(file)")
        }
        let indent = lines[begin].prefix { $0 == " " }.count
        return lines[(begin + 1)..<end].map { String($0.dropFirst(indent)) }.joined(separator: "\n")
    }

    /// The text of the repository's document `name` (such as `README.md` or `Plugins.md`): the repository is the
    /// nearest folder above `file` (by default the calling test's source file) that has a `Package.swift`.
    public static func document(_ name: String, near file: String = #filePath) throws -> String {
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            }
            folder.deleteLastPathComponent()
        }
        throw Missing(description: "no Package.swift above \(file), so no \(name)")
    }
}
