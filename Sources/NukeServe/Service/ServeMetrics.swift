import Foundation
import NukeCore

/// The service's counters, rendered as Prometheus text (exposition format 0.0.4) on `/metrics`.
final class ServeMetrics: @unchecked Sendable {
    // @unchecked: every `var` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var requestsByStatus: [Int: Int] = [:]
    private var bucketCounts: [Int]
    private var durationSum = 0.0
    private var durationCount = 0
    private var inFlight = 0
    private var resultHits: [String: Int] = ["memory": 0, "joined": 0, "store": 0]
    private var resultsMade = 0

    /// The upper bounds of the latency histogram's buckets, in seconds.
    static let buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    init() {
        bucketCounts = Array(repeating: 0, count: Self.buckets.count)
    }

    func requestStarted() {
        lock.withLock { inFlight += 1 }
    }

    func requestFinished(status: Int, seconds: Double) {
        lock.withLock {
            inFlight -= 1
            requestsByStatus[status, default: 0] += 1
            durationSum += seconds
            durationCount += 1
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { bucketCounts[index] += 1 }
        }
    }

    func resultObtained(_ source: ResultCache.Source) {
        lock.withLock {
            switch source {
            case .memory: resultHits["memory", default: 0] += 1
            case .joined: resultHits["joined", default: 0] += 1
            case .stored: resultHits["store", default: 0] += 1
            case .made: resultsMade += 1
            }
        }
    }

    /// Requests answered so far with `status`.
    func count(status: Int) -> Int {
        lock.withLock { requestsByStatus[status, default: 0] }
    }

    /// The metrics as Prometheus text.
    func render(
        pipeline: ImagePipeline.Statistics, gate: (running: Int, waiting: Int), cache: (count: Int, bytes: Int)
    ) -> String {
        var lines: [String] = []
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            lines.append("# HELP nuke_serve_\(name) \(help)")
            lines.append("# TYPE nuke_serve_\(name) \(type)")
            for (labels, value) in samples { lines.append("nuke_serve_\(name)\(labels) \(value)") }
        }
        lock.withLock {
            metric(
                "requests_total", "counter", "Requests answered, by HTTP status.",
                requestsByStatus.keys.sorted().map { ("{status=\"\($0)\"}", "\(requestsByStatus[$0]!)") })
            var samples: [(String, String)] = []
            for (index, bound) in Self.buckets.enumerated() {
                samples.append(("_bucket{le=\"\(bound)\"}", "\(bucketCounts[index])"))
            }
            samples.append(("_bucket{le=\"+Inf\"}", "\(durationCount)"))
            samples.append(("_sum", "\(durationSum)"))
            samples.append(("_count", "\(durationCount)"))
            lines.append("# HELP nuke_serve_request_duration_seconds Time from a request's head to its response.")
            lines.append("# TYPE nuke_serve_request_duration_seconds histogram")
            for (suffix, value) in samples { lines.append("nuke_serve_request_duration_seconds\(suffix) \(value)") }
            metric("in_flight_requests", "gauge", "Requests being answered.", [("", "\(inFlight)")])
            metric(
                "result_cache_hits_total", "counter", "Results served without making them, by tier.",
                resultHits.keys.sorted().map { ("{tier=\"\($0)\"}", "\(resultHits[$0]!)") })
            metric(
                "results_made_total", "counter", "Results made (loaded, decoded, processed, encoded).",
                [
                    ("", "\(resultsMade)")
                ])
        }
        metric("work_running", "gauge", "Results being made.", [("", "\(gate.running)")])
        metric("work_queue_depth", "gauge", "Requests waiting for a worker.", [("", "\(gate.waiting)")])
        metric("result_cache_entries", "gauge", "Encoded results held in memory.", [("", "\(cache.count)")])
        metric("result_cache_bytes", "gauge", "Bytes of the encoded results held in memory.", [("", "\(cache.bytes)")])
        metric(
            "pipeline_events_total", "counter", "The image pipeline's statistics.",
            [
                ("data_loads", pipeline.dataLoadsStarted), ("decodes", pipeline.decodes),
                ("processes", pipeline.processes), ("coalesced_joins", pipeline.coalescedJoins),
                ("memory_cache_hits", pipeline.memoryCacheHits), ("disk_cache_hits", pipeline.diskCacheHits),
                ("revalidations", pipeline.revalidations), ("refetches", pipeline.refetches),
                ("cancellations", pipeline.cancellations),
            ].map { ("{event=\"\($0.0)\"}", "\($0.1)") })
        metric(
            "pipeline_bytes_loaded_total", "counter", "Bytes the pipeline downloaded.",
            [
                ("", "\(pipeline.bytesLoaded)")
            ])
        metric("resident_memory_bytes", "gauge", "The process's resident set size.", [("", "\(Self.residentBytes())")])
        return lines.joined(separator: "\n") + "\n"
    }

    /// The resident set size from `/proc/self/statm`, or 0 where it can't be read.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
