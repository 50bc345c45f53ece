import Foundation
import Nuke

/// The demo's feed: one column of cells, every fifth a large "hero" cell, each showing one image of the set.
/// Cells share images (a third of them repeat an image shown a little earlier), and the two cell kinds ask
/// for thumbnails of two sizes, so the pipeline can share downloads between sizes and decodes between cells.
struct FeedLayout {
    struct Cell {
        let frame: CGRect
        let url: URL
        let thumbnailSize: Float
        var request: ImageRequest {
            var request = ImageRequest(url: url)
            request.thumbnail = ImageRequest.ThumbnailOptions(maxPixelSize: CGFloat(thumbnailSize))
            return request
        }
    }

    static let viewport = CGSize(width: 390, height: 844)
    let cells: [Cell]

    init(cellCount: Int, urls: [URL], seed: Int = 42) {
        var random = SyntheticImages.Random(seed: seed)
        var picks: [Int] = []
        var cells: [Cell] = []
        var y = 0.0
        for index in 0..<cellCount {
            let isHero = index % 5 == 0
            let pick =
                index >= 3 && random.unit() < 0.35
                ? picks[max(0, index - 12) + random.int(0..<min(12, index))]
                : random.int(0..<urls.count)
            picks.append(pick)
            let height = isHero ? 300.0 : 120.0
            cells.append(
                Cell(
                    frame: CGRect(x: 0, y: y, width: Self.viewport.width, height: height), url: urls[pick],
                    thumbnailSize: isHero ? 320 : 160))
            y += height
        }
        self.cells = cells
    }

    /// The height of the whole feed.
    var contentHeight: Double { cells.last.map { Double($0.frame.maxY) } ?? 0 }

    /// The largest scroll offset.
    var maxOffset: Double { max(0, contentHeight - Double(Self.viewport.height)) }

    /// The indices of the cells intersecting `rect`, top to bottom.
    func items(in rect: CGRect) -> [Int] {
        // Binary search for the first cell that ends below the rect's top.
        var low = 0
        var high = cells.count
        while low < high {
            let middle = (low + high) / 2
            if cells[middle].frame.maxY <= rect.minY { low = middle + 1 } else { high = middle }
        }
        var result: [Int] = []
        var index = low
        while index < cells.count, cells[index].frame.minY < rect.maxY {
            result.append(index)
            index += 1
        }
        return result
    }
}

/// How the demo scrolls: a list of moves (to an offset at a speed, then a pause), as a function of time.
struct ScrollScript {
    struct Move {
        let target: Double
        let speed: Double
        let pause: Double
    }

    let moves: [Move]

    /// A realistic session over a feed of `maxOffset`: read, fling, scroll back, fling, read, fling to the end.
    static func session(maxOffset: Double) -> ScrollScript {
        let points: [(Double, Double, Double)] = [
            (0.05, 2_500, 0.4), (0.26, 12_000, 0.3), (0.2, 4_000, 0.3), (0.52, 12_000, 0.3), (0.64, 4_000, 0.3),
            (1, 15_000, 0.5),
        ]
        return ScrollScript(moves: points.map { Move(target: $0.0 * maxOffset, speed: $0.1, pause: $0.2) })
    }

    /// The whole session's length in seconds.
    var duration: Double {
        var offset = 0.0
        var time = 0.0
        for move in moves {
            time += abs(move.target - offset) / move.speed + move.pause
            offset = move.target
        }
        return time
    }

    /// The scroll offset `time` seconds into the session.
    func offset(at time: Double) -> Double {
        var offset = 0.0
        var start = 0.0
        for move in moves {
            let travel = abs(move.target - offset) / move.speed
            if time < start + travel {
                let fraction = (time - start) / travel
                return offset + (move.target - offset) * fraction
            }
            start += travel + move.pause
            offset = move.target
            if time < start { return offset }
        }
        return offset
    }
}
