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
/// ``retainedByteLimit`` bytes and ``retainedCountLimit`` buffers, and hands them out again; what doesn't fit is
/// unmapped at once. What the pool keeps is the whole of what freed images still hold.
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
    static let shared = PixelBufferPool(retainedByteLimit: 16 << 20, retainedCountLimit: 16)

    let retainedByteLimit: Int
    let retainedCountLimit: Int
    private let state = LockedValueBox(State())
    /// The bytes of this pool's mappings that exist now: handed out or kept.
    private let mappedBytes = Atomic<Int>(0)
    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    private struct State {
        /// Oldest first.
        var buffers: [Buffer] = []
        var retainedBytes = 0
    }

    init(retainedByteLimit: Int, retainedCountLimit: Int) {
        self.retainedByteLimit = retainedByteLimit
        self.retainedCountLimit = retainedCountLimit
    }

    deinit {
        for buffer in state.withLock({ $0.buffers }) {
            unmap(buffer)
        }
    }

    /// The bytes the pool keeps for reuse.
    var retainedByteCount: Int { state.withLock { $0.retainedBytes } }

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
            guard let best else { return nil }
            let buffer = state.buffers.remove(at: best)
            state.retainedBytes -= buffer.length
            return buffer
        }
        if let reused {
            return Buffer(base: reused.base, length: reused.length, isZeroed: false)
        }
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base, base != MAP_FAILED else { return nil }
        mappedBytes.add(length, ordering: .relaxed)
        return Buffer(base: base, length: length, isZeroed: true)
    }

    /// Takes back a buffer from ``take(byteCount:)``: keeps it, unmapping the oldest kept ones beyond the limits,
    /// or unmaps it if it alone is over the byte limit.
    func give(_ buffer: Buffer) {
        guard buffer.length <= retainedByteLimit, retainedCountLimit > 0 else {
            unmap(buffer)
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
