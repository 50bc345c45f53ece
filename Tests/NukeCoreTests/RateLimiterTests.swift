import NukeTestKit
import Testing

@testable import NukeCore

/// A clock and timer the test moves by hand.
private final class ManualTime: @unchecked Sendable {
    // @unchecked: only used from one test at a time, on one thread.
    var now: Double = 100
    var scheduled: [(delay: Double, body: @Sendable () -> Void)] = []
}

@Suite struct RateLimiterTests {
    private func makeLimiter(_ time: ManualTime) -> RateLimiter {
        RateLimiter(
            rate: 10, burst: 3, now: { time.now },
            schedule: { delay, body in time.scheduled.append((delay, body)) })
    }

    @Test func burstRunsAtOnceThenWaits() {
        let time = ManualTime()
        let limiter = makeLimiter(time)
        var ran: [Int] = []
        for index in 0..<5 {
            limiter.execute {
                ran.append(index)
                return true
            }
        }
        #expect(ran == [0, 1, 2])
        #expect(limiter.pendingCount == 2)
        #expect(time.scheduled.count == 1)
        #expect(abs(time.scheduled[0].delay - 0.1) < 1e-9)
    }

    @Test func refillRunsWaitingWorkInOrder() {
        let time = ManualTime()
        let limiter = makeLimiter(time)
        var ran: [Int] = []
        for index in 0..<6 {
            limiter.execute {
                ran.append(index)
                return true
            }
        }
        // 0.2 s later two tokens are back
        time.now += 0.2
        time.scheduled.removeFirst().body()
        #expect(ran == [0, 1, 2, 3, 4])
        #expect(limiter.pendingCount == 1)
        #expect(time.scheduled.count == 1)

        time.now += 1
        time.scheduled.removeFirst().body()
        #expect(ran == [0, 1, 2, 3, 4, 5])
        #expect(time.scheduled.isEmpty)
    }

    @Test func workThatNoLongerNeedsToRunGivesItsTokenBack() {
        let time = ManualTime()
        let limiter = makeLimiter(time)
        var ran = 0
        for _ in 0..<3 {
            limiter.execute { false }  // cancelled meanwhile
        }
        for _ in 0..<3 {
            limiter.execute {
                ran += 1
                return true
            }
        }
        #expect(ran == 3)
        #expect(limiter.pendingCount == 0)
    }

    @Test func bucketNeverHoldsMoreThanTheBurst() {
        let time = ManualTime()
        let limiter = makeLimiter(time)
        time.now += 3600
        var ran = 0
        for _ in 0..<10 {
            limiter.execute {
                ran += 1
                return true
            }
        }
        #expect(ran == 3)
    }

    @Test func pipelinePacesAStartStorm() async throws {
        // 30 distinct requests with the clock stopped: the burst of 25 starts at once, the rest wait.
        let loader = ManualDataLoader()
        let clock = LockedBox<Double>(1000)
        let pipeline = ImagePipeline {
            $0.dataLoader = loader
            $0.dataLoadingQueue = TaskQueue(maxConcurrentOperationCount: 100)
            $0.rateLimiterClock = { clock.value }
            $0.isRateLimiterEnabled = true
        }
        let tasks = (0..<30).map { pipeline.imageTask(with: Fixtures.url("\($0)")) }
        await pipeline.flush()
        #expect(loader.count == 25)

        // When time moves on, the rest follow
        clock.value += 1
        _ = await loader.load(29)
        for task in tasks { task.cancel() }
    }
}
