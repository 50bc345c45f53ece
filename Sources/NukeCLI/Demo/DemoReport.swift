import Foundation
import Nuke

/// The numbers `nuke demo` prints.
struct DemoReport {
    let set: DemoImageSet
    let server: DemoServer.Statistics
    let port: Int
    let pipeline: ImagePipeline.Statistics
    let tasks: TaskObserver.Counts
    let diskCache: DataCache.Statistics
    let feed: FeedRecorder.Summary
    let cellCount: Int
    let httpCachePolicy: ImagePipeline.HTTPCachePolicy
    let times: (generate: Double, play: Double, total: Double)

    func print(to console: Console) {
        let row = Formatting.row
        let prefetches = max(0, tasks.created - feed.appearances)
        let kinds = Dictionary(grouping: set.files, by: { ($0.path as NSString).pathExtension }).mapValues(\.count)
        console.print(
            "nuke demo: a feed of \(cellCount) cells over \(set.files.count) images (\(kinds["jpg", default: 0]) JPEG, \(kinds["webp", default: 0]) WebP, "
                + "\(kinds["png", default: 0]) PNG, \(kinds["svg", default: 0]) SVG; \(Formatting.bytes(set.byteCount))) "
                + "served from http://127.0.0.1:\(port)")
        console.print(
            "\(feed.images.count) of \(cellCount) cells got their image on screen; the rest flew by during flings")
        console.print("")
        console.print("What the pipeline shared")
        console.print(
            row(
                "image requests",
                "\(tasks.created) (\(feed.appearances) by cells on screen, \(prefetches) by the prefetcher)"))
        console.print(
            row(
                "downloads",
                "\(pipeline.dataLoadsStarted) (\(Formatting.bytes(Int(pipeline.bytesLoaded))); "
                    + "\(tasks.urls.count) distinct images requested)"
            ))
        switch httpCachePolicy {
        case .ignoreHeaders:
            console.print(row("http cache", "headers ignored: what the disk cache holds serves until evicted"))
        case .followHeaders:
            console.print(
                row(
                    "http cache",
                    "headers followed: \(pipeline.revalidations) revalidated (\(server.notModified) answered 304), "
                        + "\(pipeline.refetches) refetched"))
        }
        console.print(
            row(
                "disk cache reads", "\(diskCache.hitCount) (original data of a downloaded image, for another thumbnail)"
            ))
        console.print(row("decodes", "\(pipeline.decodes) (at most one per image and thumbnail size, unless evicted)"))
        console.print(
            row("coalesced joins", "\(pipeline.coalescedJoins) times a request joined a download or decode in flight"))
        console.print(row("memory cache hits", "\(pipeline.memoryCacheHits)"))
        console.print(
            row(
                "cancellations",
                "\(feed.cancellations) cells scrolled away before their image arrived; \(tasks.cancelled) tasks "
                    + "cancelled in all (with prefetches stopped)"))
        if let p50 = Formatting.percentile(feed.latencies, 0.5), let p95 = Formatting.percentile(feed.latencies, 0.95) {
            console.print(
                row(
                    "latency",
                    "p50 \(Formatting.duration(p50)), p95 \(Formatting.duration(p95)) (cell on screen → image ready, "
                        + "\(feed.latencies.count) cells)"))
        }
        console.print(
            row(
                "errors",
                "\(tasks.failed)" + (tasks.failures.isEmpty ? "" : ": " + tasks.failures.joined(separator: "; "))))
        console.print(
            row(
                "server",
                "\(server.requests) requests on \(server.connections) connections (keep-alive), \(Formatting.bytes(server.bytesSent))"
            ))
        console.print(
            row(
                "time",
                "generate \(Formatting.duration(times.generate)), scroll \(Formatting.duration(times.play)), "
                    + "total \(Formatting.duration(times.total))"))
    }
}
