import Dispatch
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Large pixel buffers, each its own anonymous private mapping, so that freeing an image gives its pages back to
/// the system at once.
///
/// Why not `malloc`: glibc serves a large block with `mmap` only until the first such block is freed; then its
/// dynamic threshold rises above the block's size, and later pixel buffers come from (and return to) arenas that
/// don't shrink, so a process that streams many large images through a bounded cache keeps its peak for good.
/// A library must not change the process's malloc settings, so large buffers bypass malloc instead.
///
/// Why keep a few: a fresh mapping costs a page fault (and a zeroed page) for every 4 KB written, which costs
/// more than decoding a JPEG into it on some machines. The pool keeps the most recently freed buffers, up to
/// ``retainedByteLimit`` bytes and ``retainedCountLimit`` buffers, and hands them out again. A buffer too large for
/// those limits (a 12 MP photo is 48 MB) is kept alone, only for ``largeBufferLifetime`` after it is freed and only up
/// to ``largeBufferLimit`` bytes, so a stream of large images (a server decoding one photo after another, a batch
/// conversion) reuses its pages while an idle process returns them within that time, as allocators' decay of
/// unused memory does; what fits nowhere is unmapped at once. What the pool keeps is the whole of what freed images
/// still hold.
///
/// ## Contract
/// Thread-safe. ``take(byteCount:)`` and ``give(_:)`` never call out while holding the lock.
final class PixelBufferPool: Sendable {
    /// One mapping: `length` bytes (a multiple of the page size) at `base`.
    struct Buffer: @unchecked Sendable {
        // @unchecked: the pointer is owned by exactly one holder at a time — the pool or one `PixelStorage`.
        let base: UnsafeMutableRawPointer
        let length: Int
        /// `true` for a fresh mapping (the system zero-fills it), `false` for a reused one.
        let isZeroed: Bool
    }

    /// Buffers of at least this many bytes (128 KB, a 181×181 RGBA image) come from the pool.
    ///
    /// It is glibc's own default `M_MMAP_THRESHOLD`: below it, arena fragmentation costs little (the blocks are
    /// small), and the system call, the page rounding (at most 3 %) and the mapping count aren't worth it.
    static let threshold = 128 << 10

    /// The pool that images use.
    ///
    /// 16 MB keeps four freed 1 MP images (or many thumbnails): enough that a stream of decodes reuses buffers
    /// freed by the images it evicts, little next to any memory-cache limit worth having.
    ///
    /// One larger buffer of up to 128 MB (a 32 MP RGBA image) is kept for one second: long enough for the next
    /// image of a stream of photos, short enough that a process holds no photo's worth of memory it isn't using.
    static let shared = PixelBufferPool(
        retainedByteLimit: 16 << 20, retainedCountLimit: 16, largeBufferLimit: 128 << 20, largeBufferLifetime: 1)

    let retainedByteLimit: Int
    let retainedCountLimit: Int
    /// The largest buffer kept alone beyond ``retainedByteLimit``; 0 keeps none.
    let largeBufferLimit: Int
    /// Seconds that buffer is kept after it is given back before it is unmapped.
    let largeBufferLifetime: Double
    private let state = LockedValueBox(State())
    /// The bytes of this pool's mappings that exist now: handed out or kept.
    private let mappedBytes = Atomic<Int>(0)
    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    private struct State {
        /// Oldest first.
        var buffers: [Buffer] = []
        /// The bytes of `buffers`.
        var retainedBytes = 0
        /// The one buffer over `retainedByteLimit` that is kept, until its expiry with the same `generation` runs.
        var large: Buffer?
        /// Counts the buffers put in `large`, so that an expiry scheduled for one never removes a later one.
        var generation: UInt64 = 0
    }

    /// A pool that keeps up to `retainedByteLimit` bytes in up to `retainedCountLimit` buffers, plus one buffer of
    /// up to `largeBufferLimit` bytes for `largeBufferLifetime` seconds.
    init(
        retainedByteLimit: Int, retainedCountLimit: Int, largeBufferLimit: Int = 0, largeBufferLifetime: Double = 0
    ) {
        self.retainedByteLimit = retainedByteLimit
        self.retainedCountLimit = retainedCountLimit
        self.largeBufferLimit = largeBufferLimit
        self.largeBufferLifetime = largeBufferLifetime
    }

    deinit {
        let (buffers, large) = state.withLock { ($0.buffers, $0.large) }
        for buffer in buffers + (large.map { [$0] } ?? []) {
            unmap(buffer)
        }
    }

    /// The bytes the pool keeps for reuse, the large buffer included.
    var retainedByteCount: Int { state.withLock { $0.retainedBytes + ($0.large?.length ?? 0) } }

    /// The bytes of the pool's mappings that exist now (handed out, or kept for reuse); a buffer given back
    /// beyond the limits is unmapped and no longer counted.
    var mappedByteCount: Int { mappedBytes.load(ordering: .relaxed) }

    /// A buffer of at least `byteCount` bytes: a kept one no more than a quarter larger if there is one, else a
    /// fresh mapping; `nil` when `mmap` fails (the caller falls back to `malloc`).
    func take(byteCount: Int) -> Buffer? {
        let length = Self.roundedToPages(byteCount)
        let reused = state.withLock { state -> Buffer? in
            var best: Int?
            for (index, buffer) in state.buffers.enumerated()
            where buffer.length >= length && buffer.length - length <= length / 4 {
                if best.map({ buffer.length < state.buffers[$0].length }) ?? true {
                    best = index
                }
            }
            if let best {
                let buffer = state.buffers.remove(at: best)
                state.retainedBytes -= buffer.length
                return buffer
            }
            if let large = state.large, large.length >= length, large.length - length <= length / 4 {
                state.large = nil
                return large
            }
            return nil
        }
        if let reused {
            return Buffer(base: reused.base, length: reused.length, isZeroed: false)
        }
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base, base != MAP_FAILED else { return nil }
        mappedBytes.add(length, ordering: .relaxed)
        return Buffer(base: base, length: length, isZeroed: true)
    }

    /// Takes back a buffer from ``take(byteCount:)``: keeps it, unmapping the oldest kept ones beyond the limits;
    /// or, if it alone is over the byte limit, keeps it as the large buffer for ``largeBufferLifetime`` (unmapping
    /// the previous one) when it is within ``largeBufferLimit``, else unmaps it.
    func give(_ buffer: Buffer) {
        guard buffer.length <= retainedByteLimit, retainedCountLimit > 0 else {
            keepAlone(buffer)
            return
        }
        let evicted = state.withLock { state -> [Buffer] in
            state.buffers.append(buffer)
            state.retainedBytes += buffer.length
            var dropped = 0
            var bytes = state.retainedBytes
            while bytes > retainedByteLimit || state.buffers.count - dropped > retainedCountLimit {
                bytes -= state.buffers[dropped].length
                dropped += 1
            }
            guard dropped > 0 else { return [] }
            let evicted = Array(state.buffers.prefix(dropped))
            state.buffers.removeFirst(dropped)
            state.retainedBytes = bytes
            return evicted
        }
        for buffer in evicted {
            unmap(buffer)
        }
    }

    private func keepAlone(_ buffer: Buffer) {
        guard buffer.length <= largeBufferLimit, largeBufferLifetime > 0 else {
            unmap(buffer)
            return
        }
        let (previous, generation) = state.withLock { state -> (Buffer?, UInt64) in
            let previous = state.large
            state.large = buffer
            state.generation &+= 1
            return (previous, state.generation)
        }
        if let previous {
            unmap(previous)
        }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + largeBufferLifetime) { [weak self] in
            self?.expireLargeBuffer(generation: generation)
        }
    }

    /// Unmaps the large buffer if it is still the one kept as `generation` (the number of buffers kept alone so far).
    func expireLargeBuffer(generation: UInt64) {
        let expired = state.withLock { state -> Buffer? in
            guard state.generation == generation, let large = state.large else { return nil }
            state.large = nil
            return large
        }
        if let expired {
            unmap(expired)
        }
    }

    private func unmap(_ buffer: Buffer) {
        // munmap fails only for an invalid range, which would mean the pool's own bookkeeping is wrong.
        let result = munmap(buffer.base, buffer.length)
        assert(result == 0, "munmap failed: \(errno)")
        mappedBytes.subtract(buffer.length, ordering: .relaxed)
    }

    private static func roundedToPages(_ byteCount: Int) -> Int {
        (max(byteCount, 1) + pageSize - 1) / pageSize * pageSize
    }
}
