import Foundation
import Nuke

/// Composes the feed's thumbnails into one image: a grid of square tiles in feed order on a dark background;
/// cells that never got their image (they scrolled away first) stay as empty grey tiles.
enum ContactSheet {
    static func make(
        images: [Int: PlatformImage], cellCount: Int, columns: Int = 20, tile: Int = 64
    ) throws
        -> PlatformImage
    {
        let gap = 2
        let rows = (cellCount + columns - 1) / columns
        let width = columns * (tile + gap) + gap
        let height = rows * (tile + gap) + gap
        var sheet = try PlatformImage(width: width, height: height, isOpaque: true) { buffer in
            for index in stride(from: 0, to: buffer.count, by: 4) {
                buffer[index] = 24
                buffer[index + 1] = 24
                buffer[index + 2] = 28
                buffer[index + 3] = 255
            }
        }
        for cell in 0..<cellCount {
            let x = gap + (cell % columns) * (tile + gap)
            let y = gap + (cell / columns) * (tile + gap)
            if let image = images[cell], !image.isEmpty {
                draw(image, into: &sheet, x: x, y: y, size: tile)
            } else {
                fill(&sheet, x: x, y: y, size: tile, gray: 60)
            }
        }
        return sheet
    }

    /// Draws the centre square of premultiplied `image`, scaled to `size`×`size` (averaging 3×3 samples per
    /// pixel: cheap, and good enough for a contact sheet), over `sheet` ("source over") at `x`, `y`.
    private static func draw(_ image: PlatformImage, into sheet: inout PlatformImage, x: Int, y: Int, size: Int) {
        let side = min(image.width, image.height)
        let left = (image.width - side) / 2
        let top = (image.height - side) / 2
        let sheetRow = sheet.bytesPerRow
        let sourceRow = image.bytesPerRow
        image.withUnsafeBytes { source in
            sheet.withUnsafeMutableBytes { target in
                for row in 0..<size {
                    for column in 0..<size {
                        var sum = (0, 0, 0, 0)
                        for sample in 0..<9 {
                            let sx = left + ((column * 3 + sample % 3) * side + side / 2) / (size * 3)
                            let sy = top + ((row * 3 + sample / 3) * side + side / 2) / (size * 3)
                            let from = sy * sourceRow + sx * 4
                            sum.0 += Int(source[from])
                            sum.1 += Int(source[from + 1])
                            sum.2 += Int(source[from + 2])
                            sum.3 += Int(source[from + 3])
                        }
                        let to = (y + row) * sheetRow + (x + column) * 4
                        let inverse = 255 - sum.3 / 9
                        target[to] = UInt8(min(255, sum.0 / 9 + (Int(target[to]) * inverse + 127) / 255))
                        target[to + 1] = UInt8(min(255, sum.1 / 9 + (Int(target[to + 1]) * inverse + 127) / 255))
                        target[to + 2] = UInt8(min(255, sum.2 / 9 + (Int(target[to + 2]) * inverse + 127) / 255))
                    }
                }
            }
        }
    }

    private static func fill(_ sheet: inout PlatformImage, x: Int, y: Int, size: Int, gray: UInt8) {
        let sheetRow = sheet.bytesPerRow
        sheet.withUnsafeMutableBytes { target in
            for row in y..<(y + size) {
                for column in x..<(x + size) {
                    let to = row * sheetRow + column * 4
                    target[to] = gray
                    target[to + 1] = gray
                    target[to + 2] = gray
                }
            }
        }
    }
}
