import Foundation
import Testing

@testable import NukeCore

@Suite(.serialized) struct PixelStorageTests {
    /// 1000×1000 RGBA: far above the mapping threshold.
    static let large = (width: 1000, height: 1000)

    @Test func largeImagesAreMappedAndSmallOnesAreNot() throws {
        // Given images on either side of the threshold
        let side = 181  // 181 × 181 × 4 = 131,044 bytes, just under 128 KB
        let small = try PlatformImage(width: side, height: side)
        let large = try PlatformImage(width: side + 1, height: side)

        // Then only the large one is a mapping
        #expect(small.byteCount < PixelBufferPool.threshold)
        #expect(!small.storage.isMapped)
        #expect(large.byteCount >= PixelBufferPool.threshold)
        #expect(large.storage.isMapped)
    }

    @Test(arguments: [8, 1000])
    func copyOnWrite(side: Int) throws {
        // Given an image and a copy of it, which share storage
        let original = try Self.gradient(width: side, height: side)
        var copy = original
        #expect(copy.storage === original.storage)

        // When the copy is written
        copy.withUnsafeMutableBytes { $0[0] = 0xAB }
        copy.setPixel(.init(r: 1, g: 2, b: 3, a: 4), x: side - 1, y: side - 1)

        // Then only the copy changed
        #expect(copy.storage !== original.storage)
        #expect(original == (try Self.gradient(width: side, height: side)))
        #expect(copy.withUnsafeBytes { $0[0] } == 0xAB)
        #expect(copy.pixel(x: side - 1, y: side - 1) == .init(r: 1, g: 2, b: 3, a: 4))
        #expect(original.pixel(x: side - 1, y: side - 1) != .init(r: 1, g: 2, b: 3, a: 4))
        #expect(copy != original)
    }

    @Test func aUniqueImageIsWrittenInPlace() throws {
        // Given an image nothing else shares
        var image = try Self.gradient(width: Self.large.width, height: Self.large.height)
        let storage = ObjectIdentifier(image.storage)

        // When it is written
        image.setPixel(.init(r: 0, g: 0, b: 0, a: 0), x: 0, y: 0)

        // Then its storage is the same
        #expect(ObjectIdentifier(image.storage) == storage)
    }

    @Test func equalityAndHashingAcrossStorageKinds() throws {
        // Given the same pixels in a mapping and in a malloc'd object
        let mapped = try Self.gradient(width: Self.large.width, height: Self.large.height)
        var inline = mapped
        inline.storage = PixelStorage.uninitialized(count: mapped.byteCount, pool: nil)
        mapped.withUnsafeBytes { source in
            inline.withUnsafeMutableBytes { $0.copyMemory(from: source) }
        }
        #expect(mapped.storage.isMapped)
        #expect(!inline.storage.isMapped)

        // Then they are equal and hash alike
        #expect(mapped == inline)
        #expect(mapped.hashValue == inline.hashValue)
        #expect(Set([mapped, inline]).count == 1)

        // And one byte, or a property, tells them apart
        var changed = inline
        changed.withUnsafeMutableBytes { $0[$0.count - 1] ^= 1 }
        #expect(changed != mapped)
        var rescaled = inline
        rescaled.scale = 2
        #expect(rescaled != mapped)
        var opaque = inline
        opaque.isOpaque.toggle()
        #expect(opaque != mapped)
        let other = try Self.gradient(width: Self.large.height / 2, height: Self.large.width * 2)
        #expect(other != mapped)
    }

    @Test func emptyImages() throws {
        // Given empty images made in different ways
        var empty = PlatformImage()
        let zeroHeight = try PlatformImage(width: 5, height: 0)
        let decoded = try PlatformImage(width: 0, height: 0) { _ in }

        // Then they have no bytes, can be read and "written", and compare as values
        #expect(empty.isEmpty && empty.byteCount == 0 && empty.bytes.isEmpty)
        #expect(empty.withUnsafeBytes { $0.count } == 0)
        #expect(empty.withUnsafeMutableBytes { $0.count } == 0)
        #expect(empty.pixel(x: 0, y: 0) == nil)
        empty.setPixel(.init(r: 1, g: 1, b: 1), x: 0, y: 0)
        #expect(empty == PlatformImage())
        #expect(empty.hashValue == PlatformImage().hashValue)
        #expect(zeroHeight.isEmpty && zeroHeight.byteCount == 0)
        #expect(zeroHeight != empty)  // the width differs
        #expect(decoded.isEmpty && decoded.byteCount == 0)
        #expect(empty.unpremultipliedRGBA().isEmpty)
    }

    @Test func zeroFilledImagesAreZeroEvenFromReusedBuffers() throws {
        // Given a pool that holds a buffer full of non-zero bytes
        let pool = PixelBufferPool(retainedByteLimit: 8 << 20, retainedCountLimit: 4)
        let count = 1 << 20
        do {
            let dirty = PixelStorage.uninitialized(count: count, pool: pool)
            dirty.bytes.initializeMemory(as: UInt8.self, repeating: 0xFF, count: count)
        }
        #expect(pool.retainedByteCount >= count)

        // When zeroed storage of that size is made
        let storage = PixelStorage.zeroed(count: count, pool: pool)

        // Then it reused the buffer, and every byte is zero
        #expect(pool.retainedByteCount == 0)
        let bytes = UnsafeRawBufferPointer(start: storage.bytes, count: storage.count)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    // The two checks below count a private pool's own mappings rather than the process's resident memory, which
    // the tests running in parallel change at the same time (a freed mapping leaves the process: munmap's contract).

    @Test func freedLargeBuffersAreUnmapped() {
        // Given 100 live 4 MB buffers (400 MB) from a pool that keeps at most two freed ones
        let pool = PixelBufferPool(retainedByteLimit: 8 << 20, retainedCountLimit: 2)
        let count = Self.large.width * 4 * Self.large.height
        var buffers: [PixelStorage] = []
        for index in 0..<100 {
            let storage = PixelStorage.uninitialized(count: count, pool: pool)
            storage.bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: count)
            buffers.append(storage)
        }
        let isEveryBufferMapped = buffers.allSatisfy { $0.isMapped }
        #expect(isEveryBufferMapped)
        #expect(pool.mappedByteCount >= 100 * count)

        // When they are freed
        buffers.removeAll()

        // Then all but the two kept ones are unmapped
        #expect(pool.mappedByteCount == pool.retainedByteCount)
        #expect(pool.retainedByteCount <= 2 * (count + 4096))
    }

    @Test func aStreamOfLargeBuffersStaysBounded() {
        // Given a loop that makes 200 × 4 MB buffers (800 MB in all), keeping the last 8 as a cache would
        let pool = PixelBufferPool(retainedByteLimit: 16 << 20, retainedCountLimit: 16)
        let count = Self.large.width * 4 * Self.large.height
        var recent: [PixelStorage] = []
        var peak = 0
        for index in 0..<200 {
            let storage = PixelStorage.uninitialized(count: count, pool: pool)
            storage.bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index), count: count)
            recent.append(storage)
            if recent.count > 8 {
                recent.removeFirst()
            }
            peak = max(peak, pool.mappedByteCount)
        }

        // Then the pool never mapped more than the 8 live buffers and what it keeps for reuse
        #expect(peak <= 9 * (count + 4096) + pool.retainedByteLimit)
        recent.removeAll()
        #expect(pool.mappedByteCount == pool.retainedByteCount)
    }

    // MARK: - Helpers

    static func gradient(width: Int, height: Int) throws -> PlatformImage {
        try PlatformImage(width: width, height: height) { pixels in
            for index in pixels.indices {
                pixels[index] = UInt8(truncatingIfNeeded: index &* 7)
            }
        }
    }

    static func filled(_ width: Int, _ height: Int, with value: UInt8) throws -> PlatformImage {
        try PlatformImage(width: width, height: height) { pixels in
            pixels.initializeMemory(as: UInt8.self, repeating: value)
        }
    }
}
