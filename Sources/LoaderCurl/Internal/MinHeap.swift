/// A binary min-heap: `insert` and `popMin` are O(log n), `min` is O(1). Equal elements come out in no
/// particular order.
///
/// A value type with no synchronisation of its own; used inside ``CurlAdmissionQueue``, behind the engine's lock.
struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    /// Creates an empty heap.
    init() {}

    /// Whether the heap holds no element.
    var isEmpty: Bool { elements.isEmpty }

    /// The number of elements in the heap.
    var count: Int { elements.count }

    /// The smallest element, or `nil` when the heap is empty.
    var min: Element? { elements.first }

    /// Adds `element`.
    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the elements that match, in O(n log n).
    mutating func removeAll(where shouldBeRemoved: (Element) -> Bool) {
        elements.removeAll(where: shouldBeRemoved)
        elements.sort()  // A sorted array is a heap.
    }

    /// Removes and returns the smallest element, or returns `nil` when the heap is empty.
    mutating func popMin() -> Element? {
        guard !elements.isEmpty else { return nil }
        let last = elements.count - 1
        elements.swapAt(0, last)
        let smallest = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { break }
            let right = left + 1
            let child = right < elements.count && elements[right] < elements[left] ? right : left
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            parent = child
        }
        return smallest
    }
}
