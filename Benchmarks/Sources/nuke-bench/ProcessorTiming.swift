import Foundation

/// A time in milliseconds: wall-clock and the CPU time of the whole process (all threads, so library
/// thread pools count too; less sensitive to other load on the machine).
struct Timing {
    var wall: Double
    var cpu: Double
    /// Every measured run's wall time, in order (paired by index with the other bodies' runs).
    var wallRuns: [Double] = []
}

/// Times each of `bodies`: runs each `warmups` times, then `iterations` rounds in which every body runs once
/// (interleaved, so that all of them see the same machine load), and returns the medians.
func measure(_ options: BenchOptions, _ bodies: [() throws -> Void]) throws -> [Timing] {
    for body in bodies {
        for _ in 0..<options.warmups {
            try body()
        }
    }
    var wall = [[Double]](repeating: [], count: bodies.count)
    var cpu = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<options.iterations {
        for (index, body) in bodies.enumerated() {
            let wallStart = now(CLOCK_MONOTONIC)
            let cpuStart = now(CLOCK_PROCESS_CPUTIME_ID)
            try body()
            cpu[index].append(now(CLOCK_PROCESS_CPUTIME_ID) - cpuStart)
            wall[index].append(now(CLOCK_MONOTONIC) - wallStart)
        }
    }
    return (0..<bodies.count).map { Timing(wall: median(wall[$0]), cpu: median(cpu[$0]), wallRuns: wall[$0]) }
}

private func now(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
}

/// A one-line description of the machine.
func cpuSummary() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let model = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n")
        .first { $0.hasPrefix("model name") }?
        .split(separator: ":").last?
        .trimmingCharacters(in: .whitespaces)
    return "\(cores) cores" + (model.map { ", \($0)" } ?? "")
}

/// The peak signal-to-noise ratio between two equally long byte buffers, in dB (higher is closer).
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0.0
    for i in 0..<a.count {
        let d = Double(a[i]) - Double(b[i])
        sum += d * d
    }
    let mse = sum / Double(a.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}
