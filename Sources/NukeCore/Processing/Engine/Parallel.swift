import Dispatch
import Foundation

/// A value handed to the iterations of ``Parallel/forEachChunk(count:work:_:)``.
///
/// `@unchecked Sendable` because it carries raw pointers: every use splits the buffers so that concurrent
/// iterations read shared input and write disjoint output ranges, and the buffers outlive the call, which
/// returns only after every iteration has finished.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// Splits index ranges across the cores for the pixel loops.
enum Parallel {
    /// The least work (roughly, pixels touched) worth splitting across threads.
    static let minimumParallelWork = 1 << 18

    /// How many chunks each core gets, so that a core slowed down by other work on the machine doesn't
    /// hold up the whole call.
    static let chunksPerCore = 4

    /// Calls `body` with consecutive, disjoint sub-ranges that together cover `0..<count`, in parallel
    /// when `work` is large enough and the machine has several cores. Returns when every call has
    /// returned.
    ///
    /// - Parameters:
    ///   - count: The number of items (rows, strips) to split.
    ///   - work: An estimate of the total cost, used to decide whether threads are worth starting.
    ///   - maximumChunks: Caps the number of chunks, for loops whose chunks have a start-up cost.
    static func forEachChunk(
        count: Int,
        work: Int,
        maximumChunks: Int = .max,
        _ body: @Sendable (Range<Int>) -> Void
    ) {
        guard count > 0 else { return }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunks =
            work < minimumParallelWork || cores < 2
            ? 1 : max(1, min(count, cores * chunksPerCore, maximumChunks))
        guard chunks > 1 else {
            body(0..<count)
            return
        }
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            body((count * chunk / chunks)..<(count * (chunk + 1) / chunks))
        }
    }
}
