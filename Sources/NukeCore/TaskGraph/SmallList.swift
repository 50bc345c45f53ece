/// A list in insertion order whose first element is stored inline: most of the pipeline's lists (a task's
/// subscribers, a public task's waiters, a load's cancellables) hold exactly one element, and an array would
/// allocate for it. The rest go to an array, allocated only when there are two or more.
struct SmallList<Element>: Sequence {
    private var first: Element?
    private var rest: [Element] = []

    init() {}

    var isEmpty: Bool { first == nil }

    /// The element, if there is exactly one.
    var onlyElement: Element? { rest.isEmpty ? first : nil }

    mutating func append(_ element: Element) {
        if first == nil {
            first = element
        } else {
            rest.append(element)
        }
    }

    /// Removes the first element that matches; returns `false` if none does.
    mutating func remove(where matches: (Element) -> Bool) -> Bool {
        guard let head = first else { return false }
        if matches(head) {
            first = rest.isEmpty ? nil : rest.removeFirst()
            return true
        }
        guard let index = rest.firstIndex(where: matches) else { return false }
        rest.remove(at: index)
        return true
    }

    /// Changes the first element that matches; returns `false` if none does.
    mutating func update(where matches: (Element) -> Bool, _ change: (inout Element) -> Void) -> Bool {
        guard let head = first else { return false }
        if matches(head) {
            var element = head
            change(&element)
            first = element
            return true
        }
        guard let index = rest.firstIndex(where: matches) else { return false }
        change(&rest[index])
        return true
    }

    mutating func removeAll() {
        first = nil
        rest = []
    }

    func max<T: Comparable>(of value: (Element) -> T) -> T? {
        guard let first else { return nil }
        return rest.reduce(value(first)) { Swift.max($0, value($1)) }
    }

    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }

    struct Iterator: IteratorProtocol {
        fileprivate var first: Element?
        fileprivate var rest: IndexingIterator<[Element]>

        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }
}
