#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pixel bytes of one or more ``PlatformImage`` values, which share it until one of them writes
/// (copy-on-write, through `isKnownUniquelyReferenced`).
///
/// Buffers of at least ``PixelBufferPool/threshold`` bytes are mappings from a ``PixelBufferPool``, given back
/// when the last image holding them goes away; smaller ones come from `malloc`. When `mmap` fails a large buffer
/// falls back to `malloc` too, so an allocation fails only where any Swift allocation would.
final class PixelStorage: @unchecked Sendable {
    // @unchecked: the properties never change, and the bytes are written only through PlatformImage's mutating
    // methods after a uniqueness check, so storage that several images (or threads) share is only read.

    /// The first byte. Valid while the storage is alive.
    let bytes: UnsafeMutableRawPointer
    /// The number of bytes.
    let count: Int
    /// The mapping and the pool it goes back to, for large buffers; `nil` for `malloc`'d bytes.
    private let mapping: (buffer: PixelBufferPool.Buffer, pool: PixelBufferPool)?

    /// The storage of every empty image.
    static let empty = PixelStorage.uninitialized(count: 0)

    private init(bytes: UnsafeMutableRawPointer, count: Int, mapping: (PixelBufferPool.Buffer, PixelBufferPool)?) {
        self.bytes = bytes
        self.count = count
        self.mapping = mapping
    }

    deinit {
        if let mapping {
            mapping.pool.give(mapping.buffer)
        } else {
            bytes.deallocate()
        }
    }

    /// `count` bytes with unspecified contents; with a `nil` pool they always come from `malloc`.
    static func uninitialized(count: Int, pool: PixelBufferPool? = .shared) -> PixelStorage {
        make(count: count, zeroed: false, pool: pool)
    }

    /// `count` zero bytes; with a `nil` pool they always come from `malloc`.
    static func zeroed(count: Int, pool: PixelBufferPool? = .shared) -> PixelStorage {
        make(count: count, zeroed: true, pool: pool)
    }

    private static func make(count: Int, zeroed: Bool, pool: PixelBufferPool?) -> PixelStorage {
        if count >= PixelBufferPool.threshold, let pool, let buffer = pool.take(byteCount: count) {
            // Bound to bytes, so that readers may assume `UInt8`.
            if zeroed && !buffer.isZeroed {
                buffer.base.initializeMemory(as: UInt8.self, repeating: 0, count: count)
            } else {
                buffer.base.bindMemory(to: UInt8.self, capacity: count)
            }
            return PixelStorage(bytes: buffer.base, count: count, mapping: (buffer, pool))
        }
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        if zeroed {
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        } else {
            bytes.bindMemory(to: UInt8.self, capacity: count)
        }
        return PixelStorage(bytes: bytes, count: count, mapping: nil)
    }

    /// `true` when the bytes are a mapping rather than a `malloc` block.
    var isMapped: Bool { mapping != nil }

    /// A storage of its own with the same bytes, from the same pool.
    func copy() -> PixelStorage {
        let copy = Self.uninitialized(count: count, pool: mapping?.pool ?? .shared)
        copy.bytes.copyMemory(from: bytes, byteCount: count)
        return copy
    }

    /// Whether both hold the same bytes.
    func hasSameBytes(as other: PixelStorage) -> Bool {
        guard self !== other else { return true }
        guard count == other.count else { return false }
        return count == 0 || memcmp(bytes, other.bytes, count) == 0
    }
}
