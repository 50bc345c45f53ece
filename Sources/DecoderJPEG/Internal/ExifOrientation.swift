import NukeCore

/// The EXIF orientation tag (0x0112): how the stored pixels map to the upright image.
enum ExifOrientation: Int, CaseIterable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// `true` for the orientations that exchange width and height (5–8).
    var swapsDimensions: Bool { rawValue >= 5 }

    /// Reads the orientation from an APP1 payload (`Exif\0\0` followed by a TIFF structure); `nil` when
    /// the payload isn't EXIF, is malformed or has no valid orientation in IFD0.
    init?(exifSegment payload: UnsafeRawBufferPointer) {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"
        guard payload.count >= header.count + 8, payload.prefix(header.count).elementsEqual(header) else {
            return nil
        }
        let tiff = UnsafeRawBufferPointer(rebasing: payload[header.count...])
        let isLittleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): isLittleEndian = true
        case (0x4D, 0x4D): isLittleEndian = false
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, size <= tiff.count, offset <= tiff.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(tiff[offset + (isLittleEndian ? size - 1 - index : index)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let entryCount = read(ifd, 2) else { return nil }
        for entry in 0..<entryCount {
            let offset = ifd + 2 + entry * 12
            guard let tag = read(offset, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard read(offset + 2, 2) == 3, let value = read(offset + 8, 2) else { return nil }
            self.init(rawValue: value)
            return
        }
        return nil
    }

    /// Returns the upright image. `.up` returns `image` itself; the others build a new image.
    func apply(to image: PlatformImage) -> PlatformImage {
        guard self != .up, !image.isEmpty else { return image }
        let width = image.width
        let height = image.height
        let stride = image.bytesPerRow / PlatformImage.bytesPerPixel
        let (outputWidth, outputHeight) = swapsDimensions ? (height, width) : (width, height)
        // The source pixel index of output pixel (x, y) is `origin + x * stepX + y * stepY`.
        let last = (height - 1) * stride
        let (origin, stepX, stepY): (Int, Int, Int)
        switch self {
        case .up: (origin, stepX, stepY) = (0, 1, stride)
        case .upMirrored: (origin, stepX, stepY) = (width - 1, -1, stride)
        case .down: (origin, stepX, stepY) = (last + width - 1, -1, -stride)
        case .downMirrored: (origin, stepX, stepY) = (last, 1, -stride)
        case .leftMirrored: (origin, stepX, stepY) = (0, stride, 1)
        case .right: (origin, stepX, stepY) = (last, -stride, 1)
        case .rightMirrored: (origin, stepX, stepY) = (last + width - 1, -stride, -1)
        case .left: (origin, stepX, stepY) = (width - 1, stride, -1)
        }
        let result = try? PlatformImage(
            width: outputWidth, height: outputHeight, scale: image.scale, isOpaque: image.isOpaque
        ) { output in
            image.withUnsafeBytes { input in
                guard let source = input.baseAddress, let destination = output.baseAddress else { return }
                var offset = 0
                for y in 0..<outputHeight {
                    var sourceIndex = origin + y * stepY
                    for _ in 0..<outputWidth {
                        let pixel = source.loadUnaligned(fromByteOffset: sourceIndex &* 4, as: UInt32.self)
                        destination.storeBytes(of: pixel, toByteOffset: offset, as: UInt32.self)
                        sourceIndex &+= stepX
                        offset &+= 4
                    }
                }
            }
        }
        return result ?? image
    }
}
