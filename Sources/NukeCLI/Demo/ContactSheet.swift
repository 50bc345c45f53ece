import Foundation
import Nuke

/// Composes the feed's thumbnails into one image: a grid of square tiles in feed order on a dark background;
/// cells that never got their image (they scrolled away first) stay as empty grey tiles.
enum ContactSheet {
    static func make(images: [Int: PlatformImage], cellCount: Int, columns: Int = 20, tile: Int = 64) throws
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
        let resize = ImageProcessors.Resize(
            size: CGSize(width: tile, height: tile), unit: .pixels, contentMode: .aspectFill, crop: true, upscale: true)
        for cell in 0..<cellCount {
            let x = gap + (cell % columns) * (tile + gap)
            let y = gap + (cell / columns) * (tile + gap)
            if let image = images[cell], let thumbnail = resize.process(image) {
                draw(thumbnail, into: &sheet, x: x, y: y)
            } else {
                fill(&sheet, x: x, y: y, size: tile, gray: 60)
            }
        }
        return sheet
    }

    /// Draws premultiplied `image` over `sheet` ("source over") with its top-left corner at `x`, `y`.
    private static func draw(_ image: PlatformImage, into sheet: inout PlatformImage, x: Int, y: Int) {
        let sheetRow = sheet.bytesPerRow
        let sheetWidth = sheet.width
        let sheetHeight = sheet.height
        image.withUnsafeBytes { source in
            sheet.withUnsafeMutableBytes { target in
                for row in 0..<image.height where y + row < sheetHeight {
                    for column in 0..<image.width where x + column < sheetWidth {
                        let from = row * image.bytesPerRow + column * 4
                        let to = (y + row) * sheetRow + (x + column) * 4
                        let inverse = 255 - Int(source[from + 3])
                        for channel in 0..<3 {
                            target[to + channel] = UInt8(
                                min(255, Int(source[from + channel]) + (Int(target[to + channel]) * inverse + 127) / 255))
                        }
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
