import NukeTestKit
import Testing

@testable import LoaderCurl

@Suite("CurlAdmissionQueue")
struct CurlAdmissionQueueTests {
    typealias Queue = CurlAdmissionQueue<String>

    @Test func oneHostIsAdmittedFirstInFirstOutUpToItsLimit() {
        // Given a limit of two per host and five transfers to one host
        var queue = Queue(maximumPerHost: 2)
        for id in 1...5 { queue.enqueue("t\(id)", id: id, host: "h") }

        // When admitting as far as possible
        let first = admitAll(&queue)

        // Then the first two run and three wait
        #expect(first == ["t1", "t2"])
        #expect(queue.waitingCount == 3)

        // When the second completes, then the first
        queue.release(2)
        let second = admitAll(&queue)
        queue.release(1)
        let third = admitAll(&queue)

        // Then each freed slot goes to the oldest waiting transfer
        #expect(second == ["t3"])
        #expect(third == ["t4"])
        #expect(queue.waitingCount == 1)
        #expect(queue.admittedCount == 2)
    }

    @Test func hostsAreIndependentUnderThePerHostLimit() {
        // Given a limit of one per host, with host a busy
        var queue = Queue(maximumPerHost: 1)
        queue.enqueue("a1", id: 1, host: "a")
        queue.enqueue("a2", id: 2, host: "a")
        queue.enqueue("b1", id: 3, host: "b")

        // When admitting
        let admitted = admitAll(&queue)

        // Then host b's transfer doesn't wait behind host a's second one
        #expect(admitted == ["a1", "b1"])
        #expect(queue.waitingCount == 1)
    }

    @Test func theTotalLimitAdmitsAcrossHostsInSubmissionOrder() {
        // Given a total limit of one and transfers interleaved over three hosts
        var queue = Queue(maximumTotal: 1)
        let submissions = [("x", 1), ("y", 2), ("x", 3), ("z", 4), ("y", 5)]
        for (host, id) in submissions { queue.enqueue("\(host)\(id)", id: id, host: host) }

        // When each admitted transfer completes in turn
        var order: [String] = []
        while let next = queue.admitNext() {
            order.append(next.transfer)
            let another = queue.admitNext()
            #expect(another == nil)
            queue.release(next.id)
        }

        // Then they ran one at a time, in submission order
        #expect(order == ["x1", "y2", "x3", "z4", "y5"])
        #expect(queue.admittedCount == 0)
        #expect(queue.waitingCount == 0)
    }

    @Test func withdrawingTheOldestWaitingTransferPassesItsTurnOn() {
        // Given a total limit of one, one running and three waiting over two hosts
        var queue = Queue(maximumTotal: 1)
        queue.enqueue("a1", id: 1, host: "a")
        queue.enqueue("b2", id: 2, host: "b")
        queue.enqueue("a3", id: 3, host: "a")
        queue.enqueue("b4", id: 4, host: "b")
        let first = admitAll(&queue)
        #expect(first == ["a1"])

        // When the oldest waiting one is withdrawn (twice) and the running one completes
        let withdrew = queue.withdraw(2)
        let withdrewAgain = queue.withdraw(2)
        queue.release(1)

        // Then the next oldest runs, and the withdrawn one never does
        #expect(withdrew)
        #expect(!withdrewAgain)
        let second = admitAll(&queue)
        queue.release(3)
        let third = admitAll(&queue)
        #expect(second == ["a3"])
        #expect(third == ["b4"])
        #expect(queue.waitingCount == 0)
    }

    @Test func withdrawingAnAdmittedOrUnknownTransferChangesNothing() {
        // Given one admitted transfer
        var queue = Queue(maximumPerHost: 1)
        queue.enqueue("a", id: 1, host: "h")
        _ = admitAll(&queue)

        // When it (and an unknown id) is withdrawn
        let withdrewAdmitted = queue.withdraw(1)
        let withdrewUnknown = queue.withdraw(42)

        // Then neither counts as withdrawn and the transfer stays admitted
        #expect(!withdrewAdmitted)
        #expect(!withdrewUnknown)
        #expect(queue.isAdmitted(1))
        let releasedUnknown = queue.release(42)
        #expect(!releasedUnknown)
    }

    @Test func aHostThatMultiplexesGetsAHundredStreams() {
        // Given a limit of one per host and 150 transfers to one host, one of them running
        var queue = Queue(maximumPerHost: 1)
        for id in 1...150 { queue.enqueue("t\(id)", id: id, host: "h") }
        _ = admitAll(&queue)

        // When it completes over HTTP/2
        queue.release(1, multiplexes: true)

        // Then the next 100 run at once, in order
        let admitted = admitAll(&queue)
        #expect(admitted.count == Queue.streamsPerMultiplexingHost)
        #expect(admitted.first == "t2")
        #expect(admitted.last == "t101")
        #expect(queue.waitingCount == 49)
    }

    @Test func idleHostsAreForgottenButMultiplexingOnesAreRemembered() {
        // Given transfers to two hosts, one of which turns out to multiplex
        var queue = Queue(maximumPerHost: 1)
        queue.enqueue("a", id: 1, host: "a")
        queue.enqueue("b", id: 2, host: "b")
        queue.enqueue("c", id: 3, host: "c")
        _ = admitAll(&queue)
        #expect(queue.hostCount == 3)

        // When all complete (b over HTTP/2) and c's queue empties by withdrawal
        queue.release(1)
        queue.release(2, multiplexes: true)
        queue.enqueue("c2", id: 4, host: "c")
        let withdrew = queue.withdraw(4)
        queue.release(3)

        // Then only the multiplexing host is remembered, and it keeps its raised limit
        #expect(withdrew)
        #expect(queue.hostCount == 1)
        for id in 10..<20 { queue.enqueue("b\(id)", id: id, host: "b") }
        let admitted = admitAll(&queue)
        #expect(admitted.count == 10)
    }

    @Test func withdrawingMostOfALongQueueKeepsTheRestInOrder() {
        // Given 1,000 transfers waiting for one host with one slot
        var queue = Queue(maximumPerHost: 1)
        for id in 0..<1000 { queue.enqueue("t\(id)", id: id, host: "h") }
        _ = admitAll(&queue)

        // When all but every 100th waiting one are withdrawn
        var withdrawn = 0
        for id in 1..<1000 where id % 100 != 0 && queue.withdraw(id) { withdrawn += 1 }

        // Then the survivors run in submission order
        var order: [String] = []
        var running = 0
        while true {
            queue.release(running)
            guard let next = queue.admitNext() else { break }
            order.append(next.transfer)
            running = next.id
        }
        #expect(withdrawn == 990)
        #expect(order == (1..<10).map { "t\($0 * 100)" })
        #expect(queue.hostCount == 0)
    }

    @Test func higherPrioritiesAreAdmittedFirstAndEqualOnesInSubmissionOrder() {
        // Given one slot, taken, and transfers waiting at mixed priorities (a higher value goes first)
        var queue = Queue(maximumPerHost: 1)
        queue.enqueue("running", id: 0, host: "h")
        _ = admitAll(&queue)
        let submissions = [("low1", 1), ("high1", 3), ("normal1", 2), ("high2", 3), ("low2", 1), ("normal2", 2)]
        for (index, (name, priority)) in submissions.enumerated() {
            queue.enqueue(name, id: index + 1, host: "h", priority: priority)
        }

        // When each admitted transfer completes in turn
        let order = drainOneAtATime(&queue, running: 0)

        // Then the highest priority runs first, and equal ones in the order they came
        #expect(order == ["high1", "high2", "normal1", "normal2", "low1", "low2"])
    }

    @Test func aNewPriorityMovesAWaitingTransferBehindThoseAtThatPriority() {
        // Given one slot, taken, and four transfers waiting at priority 1
        var queue = Queue(maximumPerHost: 1)
        queue.enqueue("running", id: 0, host: "h")
        _ = admitAll(&queue)
        for id in 1...4 { queue.enqueue("t\(id)", id: id, host: "h", priority: 1) }

        // When t4 is raised to 2, t1 is lowered to 0, and t2 is raised then set back to 1
        let raised = queue.setPriority(2, of: 4)
        let lowered = queue.setPriority(0, of: 1)
        let up = queue.setPriority(2, of: 2)
        let back = queue.setPriority(1, of: 2)
        let unchanged = queue.setPriority(1, of: 3)
        let running = queue.setPriority(5, of: 0)
        let unknown = queue.setPriority(5, of: 99)

        // Then t4 runs first, t2 now waits behind t3, and t1 runs last; a running, unknown or unchanged transfer
        // isn't moved
        #expect([raised, lowered, up, back] == [true, true, true, true])
        #expect([unchanged, running, unknown] == [false, false, false])
        #expect(drainOneAtATime(&queue, running: 0) == ["t4", "t3", "t2", "t1"])
        #expect(queue.hostCount == 0)
    }

    @Test func aRaisedTransferOvertakesAnotherHostsOlderOneUnderTheTotalLimit() {
        // Given a total limit of one, taken, and one transfer waiting for each of two hosts
        var queue = Queue(maximumTotal: 1)
        queue.enqueue("running", id: 0, host: "a")
        _ = admitAll(&queue)
        queue.enqueue("a1", id: 1, host: "a")
        queue.enqueue("b1", id: 2, host: "b")

        // When the later one is raised
        queue.setPriority(3, of: 2)

        // Then it is admitted first when the slot frees
        #expect(drainOneAtATime(&queue, running: 0) == ["b1", "a1"])
    }

    @Test func aTransfersOwnLimitCapsItsHost() {
        // Given a host limit of six and transfers that carry a limit of two
        var queue = Queue(maximumPerHost: 6)
        for id in 1...5 { queue.enqueue("t\(id)", id: id, host: "h", limit: 2) }
        queue.enqueue("other", id: 6, host: "other", limit: 2)

        // When admitting as far as possible
        let first = admitAll(&queue)

        // Then two run for the host (and the other host is not held up); a freed slot admits one more
        #expect(first == ["t1", "t2", "other"])
        queue.release(1)
        #expect(admitAll(&queue) == ["t3"])
        #expect(queue.waitingCount == 2)
    }

    @Test(arguments: [(0, 0), (2, 0), (0, 3), (2, 3), (1, 1)])
    func matchesAScanOfOneListInSubmissionOrder(maximumPerHost: Int, maximumTotal: Int) {
        // Given the queue and a reference model (one list, sorted by priority then submission, scanned on every
        // change)
        var queue = Queue(maximumPerHost: maximumPerHost, maximumTotal: maximumTotal)
        var model = ScanModel(maximumPerHost: maximumPerHost, maximumTotal: maximumTotal)
        var random = SeededRandomNumberGenerator(seed: UInt64(maximumPerHost * 31 + maximumTotal))
        var nextID = 0

        // When both get the same 3,000 random submissions (at three priorities), completions, withdrawals and
        // priority changes over four hosts
        for _ in 0..<3000 {
            switch random.next() % 12 {
            case 0..<5:
                let host = "h\(random.next() % 4)"
                let priority = Int(random.next() % 3)
                queue.enqueue("\(nextID)", id: nextID, host: host, priority: priority)
                model.enqueue(nextID, host: host, priority: priority)
                nextID += 1
            case 10, 11:
                guard let id = model.waiting.randomElement(using: &random)?.id else { continue }
                let priority = Int(random.next() % 3)
                let moved = queue.setPriority(priority, of: id)
                #expect(moved == model.setPriority(priority, of: id))
            case 5..<8:
                guard let id = model.admitted.randomElement(using: &random) else { continue }
                let multiplexes = random.next() % 8 == 0
                let released = queue.release(id, multiplexes: multiplexes)
                #expect(released)
                model.release(id, multiplexes: multiplexes)
            default:
                guard let id = model.waiting.randomElement(using: &random)?.id else { continue }
                let withdrew = queue.withdraw(id)
                #expect(withdrew)
                model.withdraw(id)
            }
            // Then they admit the same transfers in the same order
            let admitted = admitAll(&queue)
            let expected = model.admit().map { "\($0)" }
            #expect(admitted == expected)
        }
        #expect(queue.waitingCount == model.waiting.count)
        #expect(queue.admittedCount == model.admitted.count)
    }

    private func admitAll(_ queue: inout Queue) -> [String] {
        var admitted: [String] = []
        while let next = queue.admitNext() { admitted.append(next.transfer) }
        return admitted
    }

    /// Releases `running`, admits the next, and so on until nothing is admitted; returns the admitted in order.
    private func drainOneAtATime(_ queue: inout Queue, running: Int) -> [String] {
        var order: [String] = []
        var running = running
        while true {
            queue.release(running)
            guard let next = queue.admitNext() else { break }
            order.append(next.transfer)
            running = next.id
        }
        return order
    }
}

/// The admission rule written the obvious way: one list sorted by priority (highest first), then submission,
/// scanned from the start on every change (what `CurlMultiStateMachine` did before per-host queues, with
/// priorities).
private struct ScanModel {
    let maximumPerHost: Int
    let maximumTotal: Int
    var waiting: [(id: Int, host: String, priority: Int, sequence: Int)] = []
    var nextSequence = 0
    var admitted: Set<Int> = []
    var hostOf: [Int: String] = [:]
    var countPerHost: [String: Int] = [:]
    var multiplexing: Set<String> = []

    mutating func enqueue(_ id: Int, host: String, priority: Int) {
        waiting.append((id, host, priority, nextSequence))
        nextSequence += 1
    }

    mutating func setPriority(_ priority: Int, of id: Int) -> Bool {
        guard let index = waiting.firstIndex(where: { $0.id == id }), waiting[index].priority != priority else {
            return false
        }
        waiting[index].priority = priority
        waiting[index].sequence = nextSequence
        nextSequence += 1
        return true
    }

    mutating func withdraw(_ id: Int) {
        waiting.removeAll { $0.id == id }
    }

    mutating func release(_ id: Int, multiplexes: Bool) {
        guard admitted.remove(id) != nil, let host = hostOf.removeValue(forKey: id) else { return }
        countPerHost[host, default: 0] -= 1
        if multiplexes { multiplexing.insert(host) }
    }

    mutating func admit() -> [Int] {
        waiting.sort { $0.priority != $1.priority ? $0.priority > $1.priority : $0.sequence < $1.sequence }
        var result: [Int] = []
        var index = 0
        while index < waiting.count {
            if maximumTotal > 0, admitted.count >= maximumTotal { break }
            let entry = waiting[index]
            let limit = multiplexing.contains(entry.host) ? 100 : maximumPerHost
            if maximumPerHost > 0, countPerHost[entry.host, default: 0] >= limit {
                index += 1
                continue
            }
            waiting.remove(at: index)
            admitted.insert(entry.id)
            hostOf[entry.id] = entry.host
            countPerHost[entry.host, default: 0] += 1
            result.append(entry.id)
        }
        return result
    }
}

@Suite("MinHeap")
struct AdmissionStorageTests {
    @Test func minHeapPopsInAscendingOrder() {
        // Given a heap filled in a scrambled order
        var heap = MinHeap<Int>()
        var random = SeededRandomNumberGenerator(seed: 7)
        let values = (0..<500).map { _ in Int(random.next() % 1000) }
        for value in values { heap.insert(value) }

        // When it is drained
        var drained: [Int] = []
        while let value = heap.popMin() { drained.append(value) }

        // Then the values come out sorted
        #expect(drained == values.sorted())
        #expect(heap.isEmpty)
    }

    @Test func minHeapRemovesMatchingElementsAndStaysOrdered() {
        // Given a heap of 0..<200 inserted in reverse, partly drained
        var heap = MinHeap<Int>()
        for value in (0..<200).reversed() { heap.insert(value) }
        for _ in 0..<20 { _ = heap.popMin() }

        // When the odd values are removed, and more inserted
        heap.removeAll { $0 % 2 == 1 }
        heap.insert(1)
        heap.insert(301)

        // Then the rest drain in order
        var drained: [Int] = []
        while let value = heap.popMin() { drained.append(value) }
        #expect(drained == [1] + Array(stride(from: 20, to: 200, by: 2)) + [301])
    }
}
