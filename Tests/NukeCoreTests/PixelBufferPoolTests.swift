import Testing

@testable import NukeCore

@Suite struct PixelBufferPoolTests {
    @Test func reusesAFreedBufferOfTheSameSize() throws {
        // Given a pool and a buffer taken from it and given back
        let pool = PixelBufferPool(retainedByteLimit: 1 << 20, retainedCountLimit: 4)
        let first = try #require(pool.take(byteCount: 200_000))
        #expect(first.isZeroed)
        #expect(first.length >= 200_000 && first.length % 4096 == 0)
        pool.give(first)
        #expect(pool.retainedByteCount == first.length)

        // When a buffer of the same size is taken
        let second = try #require(pool.take(byteCount: 200_000))

        // Then it is the same mapping, not zeroed again
        #expect(second.base == first.base)
        #expect(!second.isZeroed)
        #expect(pool.retainedByteCount == 0)
        pool.give(second)
    }

    @Test func doesNotHandOutAMuchLargerBuffer() throws {
        // Given a pool that keeps a 1 MB buffer
        let pool = PixelBufferPool(retainedByteLimit: 4 << 20, retainedCountLimit: 4)
        let large = try #require(pool.take(byteCount: 1 << 20))
        pool.give(large)

        // When 256 KB are asked for
        let small = try #require(pool.take(byteCount: 256 << 10))

        // Then it is a fresh mapping, and the large one stays in the pool
        #expect(small.isZeroed)
        #expect(small.base != large.base)
        #expect(pool.retainedByteCount == large.length)
        pool.give(small)
    }

    @Test func keepsOnlyTheNewestWithinItsLimits() throws {
        // Given a pool that keeps at most 1 MB and 3 buffers
        let pool = PixelBufferPool(retainedByteLimit: 1 << 20, retainedCountLimit: 3)
        let buffers = try (0..<5).map { _ in try #require(pool.take(byteCount: 300 << 10)) }

        // When five 300 KB buffers are given back
        for buffer in buffers {
            pool.give(buffer)
        }

        // Then it keeps the last three (900 KB), and they are the ones handed out again
        #expect(pool.retainedByteCount == 3 * buffers[0].length)
        let again = try (0..<3).map { _ in try #require(pool.take(byteCount: 300 << 10)) }
        #expect(Set(again.map(\.base)) == Set(buffers[2...].map(\.base)))
        for buffer in again {
            pool.give(buffer)
        }

        // And a buffer larger than the whole limit is never kept
        let huge = try #require(pool.take(byteCount: 2 << 20))
        pool.give(huge)
        #expect(pool.retainedByteCount == 3 * buffers[0].length)
    }

    @Test func aFailedMappingIsNilNotACrash() {
        let pool = PixelBufferPool(retainedByteLimit: 1 << 20, retainedCountLimit: 4)
        #expect(pool.take(byteCount: 1 << 60) == nil)
    }

    @Test func keepsOneLargeBufferAloneAndHandsItOutAgain() throws {
        // Given a pool that keeps 1 MB of buffers, and one buffer of up to 8 MB alone
        let pool = PixelBufferPool(
            retainedByteLimit: 1 << 20, retainedCountLimit: 4, largeBufferLimit: 8 << 20, largeBufferLifetime: 3600)
        let large = try #require(pool.take(byteCount: 4 << 20))

        // When the 4 MB buffer is given back
        pool.give(large)

        // Then it is kept, and handed out again for the next image of that size, not zeroed again
        #expect(pool.retainedByteCount == large.length)
        let again = try #require(pool.take(byteCount: 4 << 20))
        #expect(again.base == large.base)
        #expect(!again.isZeroed)
        #expect(pool.retainedByteCount == 0)

        // And a buffer over the large limit is unmapped at once
        let huge = try #require(pool.take(byteCount: 9 << 20))
        pool.give(huge)
        #expect(pool.retainedByteCount == 0)
        #expect(pool.mappedByteCount == again.length)
        pool.give(again)
    }

    @Test func aNewerLargeBufferReplacesTheOlderAndOutlivesItsExpiry() throws {
        // Given a pool that keeps one large buffer, and two large buffers given back in turn
        let pool = PixelBufferPool(
            retainedByteLimit: 1 << 20, retainedCountLimit: 4, largeBufferLimit: 8 << 20, largeBufferLifetime: 3600)
        let first = try #require(pool.take(byteCount: 2 << 20))
        let second = try #require(pool.take(byteCount: 3 << 20))
        pool.give(first)
        pool.give(second)

        // Then only the newer is kept: the older is unmapped
        #expect(pool.retainedByteCount == second.length)
        #expect(pool.mappedByteCount == second.length)

        // When the expiry scheduled for the older one runs, the newer stays; when its own runs, it is unmapped
        pool.expireLargeBuffer(generation: 1)
        #expect(pool.retainedByteCount == second.length)
        pool.expireLargeBuffer(generation: 2)
        #expect(pool.retainedByteCount == 0)
        #expect(pool.mappedByteCount == 0)
    }

    @Test func theLargeBufferIsUnmappedAfterItsLifetime() async throws {
        // Given a pool that keeps a large buffer for 50 ms
        let pool = PixelBufferPool(
            retainedByteLimit: 1 << 20, retainedCountLimit: 4, largeBufferLimit: 8 << 20, largeBufferLifetime: 0.05)
        let large = try #require(pool.take(byteCount: 4 << 20))

        // When it is given back and nothing takes it
        pool.give(large)
        #expect(pool.retainedByteCount == large.length)

        // Then it is unmapped once its lifetime has passed (waiting up to 10 s for a busy machine to run the expiry)
        for _ in 0..<1000 where pool.mappedByteCount != 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(pool.retainedByteCount == 0)
        #expect(pool.mappedByteCount == 0)
    }
}
