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

    /// The plan for a `sourceWidth` × `sourceHeight` source (both at least 1), computed as imgproxy computes it.
    ///
    /// - A side's shrink is the source's side over the asked one (`0` asks for the source's). `fit` takes the larger
    ///   shrink for both sides, `fill` and `fill-down` the smaller (then crop), `force` keeps each side's own, and a
    ///   `0` side follows the other (except with `force`). `auto` is `fill` when the source and the size have the
    ///   same orientation, else `fit`.
    /// - Without `enlarge` the source is never scaled up: a shrink below 1 is divided out of both sides (so `force`
    ///   keeps its aspect ratio), and `dpr` is capped so that it can't enlarge either.
    /// - `dpr` (as capped) multiplies the result's size, the crop and gravity offsets in pixels.
    /// - `fill` crops to the asked size where the scaled image is larger; `fill-down` crops a smaller result to the
    ///   asked aspect ratio.
    public init(sourceWidth: Int, sourceHeight: Int, options: ProcessingOptions) {
        let sourceWidth = max(1, sourceWidth)
        let sourceHeight = max(1, sourceHeight)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        let source = (width: Double(sourceWidth), height: Double(sourceHeight))
        let asked = (width: Double(options.width), height: Double(options.height))
        let target = (
            width: asked.width > 0 ? asked.width : source.width, height: asked.height > 0 ? asked.height : source.height
        )
        var shrinkX = target.width == source.width ? 1 : source.width / target.width
        var shrinkY = target.height == source.height ? 1 : source.height / target.height

        var type = options.resizingType
        if shrinkX != 1 || shrinkY != 1 {
            if type == .auto {
                let sameOrientation = (source.width >= source.height) == (target.width >= target.height)
                type = sameOrientation ? .fill : .fit
            }
            if options.width == 0 && type != .force {
                shrinkX = shrinkY
            } else if options.height == 0 && type != .force {
                shrinkY = shrinkX
            } else if type == .fit {
                shrinkX = max(shrinkX, shrinkY)
                shrinkY = shrinkX
            } else if type == .fill || type == .fillDown {
                shrinkX = min(shrinkX, shrinkY)
                shrinkY = shrinkX
            }
        } else if type == .auto {
            type = .fit
        }

        var dprScale = options.dpr
        if !options.enlarge {
            let smallest = min(shrinkX, shrinkY)
            if smallest < 1 {
                shrinkX /= smallest
                shrinkY /= smallest
                dprScale /= smallest
            }
            dprScale = min(dprScale, min(shrinkX, shrinkY))
        }
        shrinkX = min(shrinkX / dprScale, source.width)
        shrinkY = min(shrinkY / dprScale, source.height)
        scaledWidth = max(1, Int((source.width / shrinkX).rounded()))
        scaledHeight = max(1, Int((source.height / shrinkY).rounded()))

        var cropWidth = scaledWidth
        var cropHeight = scaledHeight
        if type == .fill || type == .fillDown {
            var resultWidth = asked.width > 0 ? max(1, Int((asked.width * dprScale).rounded())) : scaledWidth
            var resultHeight = asked.height > 0 ? max(1, Int((asked.height * dprScale).rounded())) : scaledHeight
            if type == .fillDown {
                // Smaller than asked: keep the asked aspect ratio, as large as the scaled image allows.
                if resultWidth > scaledWidth {
                    resultHeight = max(
                        1, Int((Double(resultHeight) * Double(scaledWidth) / Double(resultWidth)).rounded()))
                    resultWidth = scaledWidth
                }
                if resultHeight > scaledHeight {
                    resultWidth = max(
                        1, Int((Double(resultWidth) * Double(scaledHeight) / Double(resultHeight)).rounded()))
                    resultHeight = scaledHeight
                }
            }
            cropWidth = min(scaledWidth, resultWidth)
            cropHeight = min(scaledHeight, resultHeight)
        }
        crop = Self.position(
            width: cropWidth, height: cropHeight, in: (scaledWidth, scaledHeight), gravity: options.gravity,
            dpr: dprScale)
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
