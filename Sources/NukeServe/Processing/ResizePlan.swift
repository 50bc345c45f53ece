/// The geometry of a result, computed from the source's size and the options as imgproxy computes it: the size the
/// source is scaled to, then the area of the scaled image that is kept.
public struct ResizePlan: Sendable, Hashable {
    /// A rectangle in pixels of the scaled image.
    public struct Rect: Sendable, Hashable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        /// Makes a rectangle.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The width the source is scaled to.
    public var scaledWidth: Int
    /// The height the source is scaled to.
    public var scaledHeight: Int
    /// The area of the scaled image that makes the result: all of it unless a `fill` crops.
    public var crop: Rect

    /// The result's width.
    public var resultWidth: Int { crop.width }
    /// The result's height.
    public var resultHeight: Int { crop.height }
    /// Whether the source is used at its own size.
    public var isIdentity: Bool {
        crop == Rect(x: 0, y: 0, width: scaledWidth, height: scaledHeight) && scaledWidth == sourceWidth
            && scaledHeight == sourceHeight
    }

    private var sourceWidth: Int
    private var sourceHeight: Int

    /// The plan for a `sourceWidth` × `sourceHeight` source (both at least 1).
    ///
    /// - `width`/`height` are multiplied by `dpr`; a `0` side follows from the other and the source's aspect ratio.
    /// - `fit` scales to fit inside the size, `fill` to cover it and crops around the gravity, `fill-down` as `fill`
    ///   but crops a result smaller than the size to the size's aspect ratio, `force` scales each axis (a `0` side
    ///   keeps the source's), `auto` is `fill` when the source and the size have the same orientation, else `fit`.
    /// - Without `enlarge` the source is never scaled up. With no size at all, the source's size times `dpr`.
    public init(sourceWidth: Int, sourceHeight: Int, options: ProcessingOptions) {
        let sourceWidth = max(1, sourceWidth)
        let sourceHeight = max(1, sourceHeight)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        let width = Double(options.width) * options.dpr
        let height = Double(options.height) * options.dpr
        let source = (width: Double(sourceWidth), height: Double(sourceHeight))

        var type = options.resizingType
        if type == .auto {
            let sameOrientation = (source.width >= source.height) == (width >= height)
            type = width > 0 && height > 0 && sameOrientation ? .fill : .fit
        }

        var scaleX: Double
        var scaleY: Double
        switch type {
        case .force:
            scaleX = width > 0 ? width / source.width : 1
            scaleY = height > 0 ? height / source.height : 1
        case .fit, .fill, .fillDown, .auto:
            let scales = [width > 0 ? width / source.width : nil, height > 0 ? height / source.height : nil]
                .compactMap { $0 }
            let scale = scales.isEmpty ? options.dpr : (type == .fit ? scales.min()! : scales.max()!)
            scaleX = scale
            scaleY = scale
        }
        if !options.enlarge {
            scaleX = min(scaleX, 1)
            scaleY = min(scaleY, 1)
        }
        scaledWidth = max(1, Int((source.width * scaleX).rounded()))
        scaledHeight = max(1, Int((source.height * scaleY).rounded()))

        var cropWidth = scaledWidth
        var cropHeight = scaledHeight
        if type == .fill || type == .fillDown {
            if width > 0 { cropWidth = min(scaledWidth, max(1, Int(width.rounded()))) }
            if height > 0 { cropHeight = min(scaledHeight, max(1, Int(height.rounded()))) }
            if type == .fillDown, width > 0, height > 0,
                cropWidth < Int(width.rounded()) || cropHeight < Int(height.rounded())
            {
                // Smaller than asked: keep the asked aspect ratio, as large as the scaled image allows.
                let aspect = width / height
                if Double(scaledWidth) / Double(scaledHeight) > aspect {
                    cropHeight = scaledHeight
                    cropWidth = max(1, min(scaledWidth, Int((Double(scaledHeight) * aspect).rounded())))
                } else {
                    cropWidth = scaledWidth
                    cropHeight = max(1, min(scaledHeight, Int((Double(scaledWidth) / aspect).rounded())))
                }
            }
        }
        crop = Self.position(
            width: cropWidth, height: cropHeight, in: (scaledWidth, scaledHeight), gravity: options.gravity,
            dpr: options.dpr)
    }

    /// Places a `width` × `height` area in `bounds` by `gravity` (imgproxy's positions: offsets move the area away
    /// from the gravity's edge, towards the centre for `ce`), clamped inside the bounds.
    static func position(
        width: Int, height: Int, in bounds: (width: Int, height: Int), gravity: ProcessingOptions.Gravity, dpr: Double
    ) -> Rect {
        func offset(_ value: Double, side: Int) -> Int {
            abs(value) < 1 ? Int((value * Double(side)).rounded()) : Int((value * dpr).rounded())
        }
        let dx = offset(gravity.xOffset, side: bounds.width)
        let dy = offset(gravity.yOffset, side: bounds.height)
        let centreX = (bounds.width - width + 1) / 2
        let centreY = (bounds.height - height + 1) / 2
        var x = centreX + dx
        var y = centreY + dy
        switch gravity.type {
        case .center: break
        case .north: y = dy
        case .south: y = bounds.height - height - dy
        case .east: x = bounds.width - width - dx
        case .west: x = dx
        case .northEast: (x, y) = (bounds.width - width - dx, dy)
        case .northWest: (x, y) = (dx, dy)
        case .southEast: (x, y) = (bounds.width - width - dx, bounds.height - height - dy)
        case .southWest: (x, y) = (dx, bounds.height - height - dy)
        }
        x = max(0, min(x, bounds.width - width))
        y = max(0, min(y, bounds.height - height))
        return Rect(x: x, y: y, width: width, height: height)
    }
}
