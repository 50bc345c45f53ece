/// `nuke demo`.
enum DemoCommand {
    static let summary = "Play a scrolling feed through the pipeline against a local server (no network)"
    static let help = ""
    static func run(_ arguments: [String]) async -> Int32 { 0 }
}
