/// A first-in, first-out queue on an array with a moving head: `append` and `popFirst` are O(1) amortised, and
/// popping never shifts the remaining elements one by one (the consumed prefix is dropped in one go once it
/// is at least half of the storage).
///
/// A value type with no synchronisation of its own; used inside ``CurlAdmissionQueue``, behind the engine's lock.
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// Creates an empty queue.
    init() {}

    /// Whether the queue holds no element.
    var isEmpty: Bool { head == storage.count }

    /// The number of elements in the queue.
    var count: Int { storage.count - head }

    /// The oldest element, or `nil` when the queue is empty.
    var first: Element? { isEmpty ? nil : storage[head] }

    /// Adds `element` at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the oldest element, or returns `nil` when the queue is empty.
    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 16, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes the elements for which `shouldBeRemoved` returns `true`, keeping the others in order. O(n).
    mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        storage.removeFirst(head)
        head = 0
        storage.removeAll(where: shouldBeRemoved)
    }
}
