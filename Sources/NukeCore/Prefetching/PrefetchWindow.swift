public import Foundation

/// Decides which items of a scrolling list to prefetch: those in a window ahead of the viewport, in the
/// direction of the scroll. Platform-free: feed it scroll offsets and it reports which item indices entered and
/// left the window, to pass to ``ImagePrefetcher/startPrefetching(with:)-([ImageRequest])`` and
/// ``ImagePrefetcher/stopPrefetching(with:)-([ImageRequest])``.
///
/// ```swift
/// let window = PrefetchWindow(axis: .vertical) { rect in layout.indices(in: rect) }
/// let change = window.update(offset: CGPoint(x: 0, y: scrollY), viewportSize: viewport)
/// prefetcher.startPrefetching(with: change.added.map(requestForItem))
/// prefetcher.stopPrefetching(with: change.removed.map(requestForItem))
/// ```
///
/// The window spans ``windowRatio`` viewports right after the visible area (or right before it when scrolling
/// back) and holds the items it covers that aren't visible. It moves only after the scroll travelled
/// ``updateThreshold`` viewports since the last update, so small scrolls cost nothing. Not thread-safe: use it
/// from one thread (or actor).
public final class PrefetchWindow {
    /// The scroll axis.
    public enum Axis: Sendable, Hashable {
        /// Scrolling left and right.
        case horizontal
        /// Scrolling up and down.
        case vertical
    }

    /// What changed in the window.
    public struct Change: Equatable, Sendable {
        /// Items that entered the window, nearest first in the scroll direction.
        public var added: [Int]
        /// Items that left the window (now visible, or behind), in no particular order.
        public var removed: [Int]

        /// Creates a change.
        public init(added: [Int] = [], removed: [Int] = []) {
            self.added = added
            self.removed = removed
        }
    }

    /// The scroll axis.
    public let axis: Axis
    /// The window's length in viewports (default 1).
    public var windowRatio: Double
    /// How far, in viewports, the scroll must travel before the window moves (default 0.25).
    public var updateThreshold: Double
    /// Returns the indices of the items whose frames intersect a rect, in layout order.
    private let items: (CGRect) -> [Int]

    private var current: Set<Int> = []
    private var lastOffset: CGPoint?

    /// Creates a window.
    public init(
        axis: Axis = .vertical,
        windowRatio: Double = 1,
        updateThreshold: Double = 0.25,
        items: @escaping (CGRect) -> [Int]
    ) {
        self.axis = axis
        self.windowRatio = windowRatio
        self.updateThreshold = updateThreshold
        self.items = items
    }

    /// The items in the window now.
    public var itemsInWindow: Set<Int> { current }

    /// Moves the viewport to `offset` and returns the items that entered and left the window. Returns an empty
    /// change when the scroll travelled less than ``updateThreshold`` viewports since the last update.
    public func update(offset: CGPoint, viewportSize: CGSize) -> Change {
        let length = axis == .vertical ? viewportSize.height : viewportSize.width
        guard length > 0 else { return Change() }
        let position = value(offset)
        let delta = lastOffset.map { position - value($0) } ?? 0
        if lastOffset != nil, abs(delta) < updateThreshold * length {
            return Change()
        }
        // A first update counts as scrolling forward.
        let isForward = delta >= 0
        lastOffset = offset

        let visible = CGRect(origin: offset, size: viewportSize)
        let windowLength = length * windowRatio
        let windowStart = isForward ? position + length : position - windowLength
        let window =
            axis == .vertical
            ? CGRect(x: offset.x, y: windowStart, width: viewportSize.width, height: windowLength)
            : CGRect(x: windowStart, y: offset.y, width: windowLength, height: viewportSize.height)

        let visibleItems = Set(items(visible))
        var ordered = items(window).filter { !visibleItems.contains($0) }
        if !isForward { ordered.reverse() }
        let next = Set(ordered)
        let added = ordered.filter { !current.contains($0) }
        let removed = current.subtracting(next).sorted()
        current = next
        return Change(added: added, removed: removed)
    }

    /// Disables the window (e.g. when the list goes off screen): empties it and returns every item that was in it
    /// as removed.
    /// The next ``update(offset:viewportSize:)`` starts afresh.
    public func disable() -> Change {
        defer {
            current = []
            lastOffset = nil
        }
        return Change(removed: current.sorted())
    }

    private func value(_ point: CGPoint) -> Double {
        axis == .vertical ? point.y : point.x
    }
}
