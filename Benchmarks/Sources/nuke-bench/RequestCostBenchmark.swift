import Dispatch
import Foundation
import NukeCore

/// The pipeline's fixed cost per request: an image request whose bytes come from a closure and whose decoder does
/// nothing (`ImageDecoders.Empty`), with no caches, so all that is measured is the task graph, its queues and its
/// thread hops. Measured one request at a time (latency) and 2,000 started at once (throughput), each as wall
/// time and as CPU time of the whole process, per request.
///
/// The reference is the least a request that does its work off the caller's thread can cost: a task object with a
/// lock, whose work is one hop to a global dispatch queue, and whose result resumes the awaiting caller.
struct RequestCostBenchmark {
    let context: BenchContext
    let section = "requests"

    func run() async throws {
        let pipeline = ImagePipeline {
            $0.makeImageDecoder = { _ in ImageDecoders.Empty() }
            $0.imageCache = nil
            $0.dataCache = nil
        }
        let tiny = Data([1, 2, 3])
        let count = 2_000
        var round = 0
        /// Fresh requests per run, so nothing is coalesced with an earlier run; made outside the timing.
        func makeRequests() -> [ImageRequest] {
            round += 1
            return (0..<count).map { index in ImageRequest(id: "r\(round)-\(index)", data: { tiny }) }
        }

        if context.selected("one at a time") {
            let samples = try await samplePairedCost(
                runs: context.runs,
                ours: {
                    let requests = makeRequests()
                    return {
                        for request in requests { _ = try await pipeline.image(for: request) }
                    }
                },
                reference: {
                    { for _ in 0..<count { _ = await ReferenceTask.start(tiny).value } }
                })
            add(samples, name: "request, one at a time", count: count)
        }
        if context.selected("at once") {
            let samples = try await samplePairedCost(
                runs: context.runs,
                ours: {
                    let requests = makeRequests()
                    return {
                        let tasks = requests.map { pipeline.imageTask(with: $0) }
                        for task in tasks { _ = try await task.image }
                    }
                },
                reference: {
                    {
                        let tasks = (0..<count).map { _ in ReferenceTask.start(tiny) }
                        for task in tasks { _ = await task.value }
                    }
                })
            add(samples, name: "request, 2,000 at once", count: count)
        }
    }

    private func add(_ samples: CostSamples, name: String, count: Int) {
        let perRequest = { (ms: Double) in ms * 1000 / Double(count) }
        let reference = "one hop to a queue and back"
        context.report.add(
            BenchRow(
                section: section, name: "\(name): CPU", reference: reference, unit: "µs/request",
                ours: samples.oursCPU.map(perRequest), theirs: samples.theirCPU.map(perRequest),
                goal: .oursAtMost(10), note: "process CPU time (all threads) ÷ \(count) requests"))
        context.report.add(
            BenchRow(
                section: section, name: "\(name): wall", reference: reference, unit: "µs/request",
                ours: samples.oursWall.map(perRequest), theirs: samples.theirWall.map(perRequest),
                goal: .oursAtMost(10), note: "wall time ÷ \(count) requests"))
    }
}

/// Wall and process-CPU times (ms) of paired runs.
private struct CostSamples {
    var oursWall: [Double] = []
    var oursCPU: [Double] = []
    var theirWall: [Double] = []
    var theirCPU: [Double] = []
}

/// Runs ours and the reference alternately (a warm-up round, then `runs` rounds, alternating which goes first).
/// `ours` and `reference` prepare a run (untimed) and return the timed body.
private func samplePairedCost(
    runs: Int,
    ours: () -> () async throws -> Void,
    reference: () -> () async throws -> Void
) async throws -> CostSamples {
    var samples = CostSamples()
    for round in -1..<runs {
        for side in round % 2 == 0 ? [0, 1] : [1, 0] {
            let body = side == 0 ? ours() : reference()
            let cpuStart = processCPUTime()
            let wallStart = DispatchTime.now().uptimeNanoseconds
            try await body()
            let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e6
            let cpu = (processCPUTime() - cpuStart) * 1000
            guard round >= 0 else { continue }
            if side == 0 {
                samples.oursWall.append(wall)
                samples.oursCPU.append(cpu)
            } else {
                samples.theirWall.append(wall)
                samples.theirCPU.append(cpu)
            }
        }
    }
    return samples
}

/// The reference request: a lock-protected result and waiter, completed by work on a global queue.
private final class ReferenceTask: @unchecked Sendable {
    // @unchecked: `result` and `waiter` are only touched under `lock`.
    private let lock = NSLock()
    private var result: Data?
    private var waiter: CheckedContinuation<Data, Never>?

    static func start(_ data: Data) -> ReferenceTask {
        let task = ReferenceTask()
        DispatchQueue.global().async { task.complete(data) }
        return task
    }

    private func complete(_ data: Data) {
        lock.lock()
        result = data
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume(returning: data)
    }

    var value: Data {
        get async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if let result {
                    lock.unlock()
                    continuation.resume(returning: result)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }
}
