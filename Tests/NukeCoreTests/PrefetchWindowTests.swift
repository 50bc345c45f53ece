import Foundation
import Testing

@testable import NukeCore

/// A list of 100-point items, one column (vertical) or one row (horizontal).
private func rows(_ rect: CGRect, axis: PrefetchWindow.Axis, count: Int = 100) -> [Int] {
    let start = axis == .vertical ? rect.minY : rect.minX
    let end = axis == .vertical ? rect.maxY : rect.maxX
    guard end > 0 else { return [] }
    let first = max(0, Int((start / 100).rounded(.down)))
    let last = min(count - 1, Int((end / 100).rounded(.up)) - 1)
    return first <= last ? Array(first...last) : []
}

@Suite struct PrefetchWindowTests {
    private let viewport = CGSize(width: 320, height: 400)

    @Test func firstUpdatePrefetchesOneViewportAhead() {
        let window = PrefetchWindow { rows($0, axis: .vertical) }
        let change = window.update(offset: .zero, viewportSize: viewport)
        // Visible: 0...3 (0–400), window 400–800: 4...7
        #expect(change == .init(added: [4, 5, 6, 7], removed: []))
    }

    @Test func smallScrollsChangeNothing() {
        let window = PrefetchWindow { rows($0, axis: .vertical) }
        _ = window.update(offset: .zero, viewportSize: viewport)
        #expect(window.update(offset: CGPoint(x: 0, y: 99), viewportSize: viewport) == .init())
        #expect(window.itemsInWindow == [4, 5, 6, 7])
    }

    @Test func scrollingForwardMovesTheWindow() {
        let window = PrefetchWindow { rows($0, axis: .vertical) }
        _ = window.update(offset: .zero, viewportSize: viewport)
        // Scrolled a quarter viewport: visible 100–500 (1...4), window 500–900 (5...8)
        let change = window.update(offset: CGPoint(x: 0, y: 100), viewportSize: viewport)
        #expect(change == .init(added: [8], removed: [4]))
    }

    @Test func scrollingBackwardPrefetchesBehindNearestFirst() {
        let window = PrefetchWindow { rows($0, axis: .vertical) }
        _ = window.update(offset: CGPoint(x: 0, y: 2000), viewportSize: viewport)
        #expect(window.itemsInWindow == [24, 25, 26, 27])
        // Scrolling up to 1800: visible 18...21, window 1400–1800 (14...17), nearest (17) first
        let change = window.update(offset: CGPoint(x: 0, y: 1800), viewportSize: viewport)
        #expect(change.added == [17, 16, 15, 14])
        #expect(Set(change.removed) == [24, 25, 26, 27])
    }

    @Test func horizontalAxis() {
        let window = PrefetchWindow(axis: .horizontal) { rows($0, axis: .horizontal) }
        let change = window.update(offset: .zero, viewportSize: CGSize(width: 200, height: 1000))
        #expect(change == .init(added: [2, 3], removed: []))
        let next = window.update(offset: CGPoint(x: 100, y: 0), viewportSize: CGSize(width: 200, height: 1000))
        #expect(next == .init(added: [4], removed: [2]))
    }

    @Test func jumpReplacesTheWholeWindow() {
        let window = PrefetchWindow { rows($0, axis: .vertical) }
        _ = window.update(offset: .zero, viewportSize: viewport)
        let change = window.update(offset: CGPoint(x: 0, y: 5000), viewportSize: viewport)
        #expect(change.added == [54, 55, 56, 57])
        #expect(Set(change.removed) == [4, 5, 6, 7])
    }

    @Test func windowRatioAndThresholdAreConfigurable() {
        let window = PrefetchWindow(windowRatio: 0.5, updateThreshold: 1) { rows($0, axis: .vertical) }
        #expect(window.update(offset: .zero, viewportSize: viewport).added == [4, 5])
        #expect(window.update(offset: CGPoint(x: 0, y: 300), viewportSize: viewport) == .init())
        #expect(window.update(offset: CGPoint(x: 0, y: 400), viewportSize: viewport).added == [8, 9])
    }

    @Test func endOfListAddsNothing() {
        let window = PrefetchWindow { rows($0, axis: .vertical, count: 5) }
        #expect(window.update(offset: CGPoint(x: 0, y: 100), viewportSize: viewport).added == [])
    }

    @Test func disablingRemovesEverything() {
        let window = PrefetchWindow { rows($0, axis: .vertical) }
        _ = window.update(offset: .zero, viewportSize: viewport)
        #expect(window.disable() == .init(added: [], removed: [4, 5, 6, 7]))
        #expect(window.itemsInWindow.isEmpty)
        // Enabled again by the next update
        #expect(window.update(offset: .zero, viewportSize: viewport).added == [4, 5, 6, 7])
    }
}
