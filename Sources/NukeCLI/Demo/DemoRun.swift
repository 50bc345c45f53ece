import Foundation
import Nuke

/// One execution of `nuke demo`.
struct DemoRun {
    let options: DemoOptions
    private let console = Console.shared

    init(options: DemoOptions) {
        self.options = options
    }

    func run() async throws -> Int32 {
        let start = monotonicSeconds()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nuke-demo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(at: directory) } }

        console.progress("generating images", completed: 0, total: 3)
        let set = try await DemoImageSet.generate(in: directory.appendingPathComponent("images"))
        let generated = monotonicSeconds()
        let server = try DemoServer(files: set.files)
        defer { server.shutdown() }

        let observer = TaskObserver()
        let dataCache = try DataCache(path: directory.appendingPathComponent("cache"))
        // A scrolling feed starts and cancels requests in storms: the case the rate limiter is for.
        let httpCachePolicy = options.httpCachePolicy
        let pipeline = PipelineFactory.make(dataCache: dataCache, delegate: observer) {
            $0.isRateLimiterEnabled = true
            $0.httpCachePolicy = httpCachePolicy
        }
        let layout = FeedLayout(cellCount: options.cellCount, urls: set.files.map { server.url($0.path) })
        let player = FeedPlayer(layout: layout, script: .session(maxOffset: layout.maxOffset), pipeline: pipeline)
        await player.play { fraction in
            console.progress("scrolling the feed", completed: Int(fraction * 100), total: 100)
        }
        let played = monotonicSeconds()
        console.clearProgress()

        let feed = player.recorder.summary
        let sheet = try ContactSheet.make(images: feed.images, cellCount: options.cellCount)
        guard let png = ImageEncoders.PNG(isFast: true).encode(sheet) else {
            throw DemoError("could not encode the contact sheet")
        }
        try png.write(to: options.contactSheet, options: .atomic)

        let report = DemoReport(
            set: set, server: server.statistics, port: server.port, pipeline: pipeline.statistics,
            tasks: observer.snapshot, diskCache: dataCache.statistics, feed: feed,
            cellCount: options.cellCount, httpCachePolicy: options.httpCachePolicy,
            times: (generate: generated - start, play: played - generated, total: monotonicSeconds() - start))
        report.print(to: console)
        console.print(Formatting.row("contact sheet", "\(options.contactSheet.path) (\(sheet.width)×\(sheet.height))"))
        if options.keep { console.print(Formatting.row("kept", directory.path)) }
        return observer.snapshot.failed == 0 ? ExitCode.success : ExitCode.failure
    }
}
