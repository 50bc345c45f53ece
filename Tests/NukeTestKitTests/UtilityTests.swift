import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite struct CallCounterTests {
    @Test func countsByKey() {
        let counter = CallCounter()
        counter.increment()
        counter.increment("a")
        counter.increment("a")
        #expect(counter.count() == 1)
        #expect(counter.count("a") == 2)
        #expect(counter.count("missing") == 0)
        #expect(counter.total == 3)
        counter.reset()
        #expect(counter.total == 0)
        #expect(counter.count("a") == 0)
    }

    @Test func isThreadSafe() async {
        let counter = CallCounter()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for _ in 0..<500 { counter.increment("\(index % 2)") }
                }
            }
        }
        #expect(counter.count("0") == 2000)
        #expect(counter.count("1") == 2000)
        #expect(counter.total == 4000)
    }
}

@Suite struct GateTests {
    @Test func waitersResumeOnlyAfterOpen() async {
        let gate = Gate()
        #expect(!gate.isOpen)
        let waiters = (0..<4).map { _ in
            Task {
                await gate.wait()
                return gate.isOpen
            }
        }
        gate.open()
        for waiter in waiters {
            #expect(await waiter.value)
        }
    }

    @Test func waitAfterOpenReturnsImmediately() async {
        let gate = Gate()
        gate.open()
        gate.open()
        #expect(gate.isOpen)
        await gate.wait()
        await gate.wait()
    }
}

@Suite struct FixturesTests {
    @Test func url() {
        #expect(Fixtures.url("image.png").absoluteString == "https://example.com/image.png")
        #expect(Fixtures.url("a/b").absoluteString == "https://example.com/a/b")
    }

    @Test func solidImage() {
        let opaque = Fixtures.solidImage(width: 3, height: 2, color: .init(r: 1, g: 2, b: 3))
        #expect(opaque.width == 3)
        #expect(opaque.height == 2)
        #expect(opaque.isOpaque)
        #expect(opaque.pixel(x: 2, y: 1) == PlatformImage.RGBA(r: 1, g: 2, b: 3, a: 255))

        let translucent = Fixtures.solidImage(width: 1, height: 1, color: .init(r: 1, g: 1, b: 1, a: 2))
        #expect(!translucent.isOpaque)
        #expect(translucent.pixel(x: 0, y: 0) == PlatformImage.RGBA(r: 1, g: 1, b: 1, a: 2))
        #expect(Fixtures.solidImage(width: 0, height: 0, color: .init(r: 0, g: 0, b: 0)).isEmpty)
    }
}

@Suite struct EventuallyTests {
    @Test func returnsOnceTheConditionHolds() async {
        let flag = LockedFlag()
        Task.detached {
            try? await Task.sleep(for: .milliseconds(20))
            flag.set()
        }
        #expect(await eventually { flag.isSet })
    }

    @Test func givesUpAfterTheTimeout() async {
        let start = ContinuousClock.now
        #expect(await eventually(timeout: .milliseconds(30)) { false } == false)
        #expect(ContinuousClock.now - start >= .milliseconds(30))
    }
}

/// A flag set from another task.
private final class LockedFlag: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
