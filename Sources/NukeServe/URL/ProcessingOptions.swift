/// What a request asks to be done to its source: imgproxy's processing options (the subset the service supports)
/// and Nuke's own processors as extension options. Values are as parsed; ``ResizePlan`` turns them into sizes.
public struct ProcessingOptions: Sendable, Hashable {
    /// How the source is fitted to ``width`` × ``height`` (imgproxy's resizing types).
    public enum ResizingType: String, Sendable, Hashable, CaseIterable {
        /// Keeps the aspect ratio and fits inside the size.
        case fit
        /// Keeps the aspect ratio, covers the size and crops what projects, around ``ProcessingOptions/gravity``.
        case fill
        /// As `fill`, but when the scaled image is smaller than the size it is cropped to the size's aspect ratio.
        case fillDown = "fill-down"
        /// Scales each axis to the size, not keeping the aspect ratio.
        case force
        /// `fill` when the source and the size have the same orientation (both portrait or both landscape), else `fit`.
        case auto
    }

    /// Where a crop keeps the image: the centre, an edge or a corner (imgproxy's gravity types).
    public enum GravityType: String, Sendable, Hashable, CaseIterable {
        case center = "ce"
        case north = "no"
        case south = "so"
        case east = "ea"
        case west = "we"
        case northEast = "noea"
        case northWest = "nowe"
        case southEast = "soea"
        case southWest = "sowe"
    }

    /// A gravity type with offsets along x and y: a value ≥ 1 is pixels (scaled by ``dpr``), below 1 a fraction of the
    /// scaled image's side, moving the kept area towards the opposite side of the gravity (imgproxy's meaning).
    public struct Gravity: Sendable, Hashable {
        public var type: GravityType
        public var xOffset: Double
        public var yOffset: Double

        /// Makes a gravity.
        public init(_ type: GravityType, xOffset: Double = 0, yOffset: Double = 0) {
            self.type = type
            self.xOffset = xOffset
            self.yOffset = yOffset
        }
    }

    /// Default `fit`.
    public var resizingType = ResizingType.fit
    /// The result's width in pixels before ``dpr``; `0` means from the height and the source's aspect ratio (for
    /// `force`, the source's width).
    public var width = 0
    /// The result's height in pixels before ``dpr``; `0` as for ``width``.
    public var height = 0
    /// Whether a source smaller than the size is enlarged. Default `false`.
    public var enlarge = false
    /// Multiplies ``width``, ``height``, gravity offsets in pixels and ``roundedCornerRadius``; greater than 0.
    public var dpr = 1.0
    /// Default centre, no offsets.
    public var gravity = Gravity(.center)
    /// The Gaussian blur's sigma in pixels of the result; `nil` for none (`blur:0` sets `nil`).
    public var blurSigma: Double?
    /// The encoder's quality from 1 to 100; `nil` for the service's default.
    public var quality: Int?
    /// The output format asked for by `format`/`f`/`ext` or the source URL's extension; `nil` to negotiate it.
    public var format: OutputFormat?
    /// Nuke's `ImageProcessors.Circle` on the result (extension option `circle`/`ci`).
    public var circle = false
    /// Nuke's `ImageProcessors.RoundedCorners` with this radius in pixels before ``dpr`` (extension option
    /// `rounded`/`rc`); `nil` for none (`rounded:0` sets `nil`).
    public var roundedCornerRadius: Double?

    /// The defaults: fit, no size (the source's), no effects.
    public init() {}

    /// The options as a canonical string: equal options give equal strings, whatever the spelling they were parsed
    /// from (aliases, argument order, defaults given or omitted). Used in result identities and `ETag`s.
    public var canonicalDescription: String {
        var parts = ["rt:\(resizingType.rawValue)", "w:\(width)", "h:\(height)", "el:\(enlarge ? 1 : 0)"]
        parts.append("dpr:\(dpr)")
        parts.append("g:\(gravity.type.rawValue):\(gravity.xOffset):\(gravity.yOffset)")
        if let blurSigma, blurSigma > 0 { parts.append("bl:\(blurSigma)") }
        if let quality { parts.append("q:\(quality)") }
        if let format { parts.append("f:\(format.rawValue)") }
        if circle { parts.append("ci:1") }
        if let roundedCornerRadius, roundedCornerRadius > 0 { parts.append("rc:\(roundedCornerRadius)") }
        return parts.joined(separator: "/")
    }
}

extension ProcessingOptions {
    /// The largest width or height an option may ask for, before ``dpr``.
    public static let maximumDimension = 16_384
    /// The largest ``dpr``.
    public static let maximumDPR = 8.0
    /// The largest blur sigma.
    public static let maximumBlurSigma = 250.0

    /// Applies one option segment (`name:arg1:arg2…`), as imgproxy reads it: arguments may be omitted or empty to keep
    /// what is set.
    ///
    /// - Throws: ``ServeError/Kind/badRequest`` naming the option for an unknown name or an invalid argument.
    public mutating func apply(_ segment: Substring) throws(ServeError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let arguments = Array(parts.dropFirst())
        func invalid(_ why: String) -> ServeError {
            ServeError(.badRequest, "invalid option '\(segment)': \(why)")
        }
        func argumentCount(_ range: ClosedRange<Int>) throws(ServeError) {
            guard range.contains(arguments.count) else {
                throw invalid(
                    range.lowerBound == range.upperBound
                        ? "takes \(range.lowerBound) argument\(range.lowerBound == 1 ? "" : "s")"
                        : "takes \(range.lowerBound) to \(range.upperBound) arguments")
            }
        }
        func dimension(_ text: String, _ what: String) throws(ServeError) -> Int? {
            guard !text.isEmpty else { return nil }
            guard let value = Int(text), (0...Self.maximumDimension).contains(value) else {
                throw invalid("\(what) must be a whole number of pixels from 0 to \(Self.maximumDimension)")
            }
            return value
        }
        func boolean(_ text: String) throws(ServeError) -> Bool? {
            switch text.lowercased() {
            case "": nil
            case "1", "t", "true": true
            case "0", "f", "false": false
            default: throw invalid("'\(text)' is not a boolean (1, t, true, 0, f, false)")
            }
        }
        func number(_ text: String, _ what: String, in range: ClosedRange<Double>) throws(ServeError) -> Double? {
            guard !text.isEmpty else { return nil }
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                throw invalid("\(what) must be a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        // imgproxy's `extend` argument (padding a smaller result to the size), which URL builders send as 0: accepted
        // when off, refused by name when on.
        func refuseExtend(_ text: String) throws(ServeError) {
            if try boolean(text) == true { throw invalid("extend is not supported (give 0 or leave it out)") }
        }
        func parseResizingType(_ text: String) throws(ServeError) -> ResizingType? {
            guard !text.isEmpty else { return nil }
            guard let type = ResizingType(rawValue: text) else {
                throw invalid("unknown resizing type '\(text)' (fit, fill, fill-down, force, auto)")
            }
            return type
        }

        switch name {
        case "resize", "rs":
            try argumentCount(0...5)
            let padded = arguments + Array(repeating: "", count: 5 - arguments.count)
            try refuseExtend(padded[4])
            if let type = try parseResizingType(padded[0]) { resizingType = type }
            if let value = try dimension(padded[1], "width") { width = value }
            if let value = try dimension(padded[2], "height") { height = value }
            if let value = try boolean(padded[3]) { enlarge = value }
        case "size", "s":
            try argumentCount(0...4)
            let padded = arguments + Array(repeating: "", count: 4 - arguments.count)
            try refuseExtend(padded[3])
            if let value = try dimension(padded[0], "width") { width = value }
            if let value = try dimension(padded[1], "height") { height = value }
            if let value = try boolean(padded[2]) { enlarge = value }
        case "resizing_type", "rt":
            try argumentCount(1...1)
            if let type = try parseResizingType(arguments[0]) { resizingType = type }
        case "width", "w":
            try argumentCount(1...1)
            if let value = try dimension(arguments[0], "width") { width = value }
        case "height", "h":
            try argumentCount(1...1)
            if let value = try dimension(arguments[0], "height") { height = value }
        case "enlarge", "el":
            try argumentCount(1...1)
            if let value = try boolean(arguments[0]) { enlarge = value }
        case "dpr":
            try argumentCount(1...1)
            guard let value = try number(arguments[0], "dpr", in: 0...Self.maximumDPR), value > 0 else {
                throw invalid("dpr must be a number greater than 0 and at most \(Self.maximumDPR)")
            }
            dpr = value
        case "gravity", "g":
            try argumentCount(1...3)
            guard let type = GravityType(rawValue: arguments[0]) else {
                throw invalid(
                    "unknown gravity '\(arguments[0])' (\(GravityType.allCases.map(\.rawValue).joined(separator: ", ")))"
                )
            }
            let limit = Double(Self.maximumDimension)
            let x = try arguments.count > 1 ? number(arguments[1], "x offset", in: -limit...limit) : nil
            let y = try arguments.count > 2 ? number(arguments[2], "y offset", in: -limit...limit) : nil
            gravity = Gravity(type, xOffset: x ?? 0, yOffset: y ?? 0)
        case "blur", "bl":
            try argumentCount(1...1)
            if let sigma = try number(arguments[0], "sigma", in: 0...Self.maximumBlurSigma) {
                blurSigma = sigma == 0 ? nil : sigma
            }
        case "quality", "q":
            try argumentCount(1...1)
            guard !arguments[0].isEmpty else { break }
            guard let value = Int(arguments[0]), (0...100).contains(value) else {
                throw invalid("quality must be a whole number from 0 (the default) to 100")
            }
            quality = value == 0 ? nil : value
        case "format", "f", "ext":
            try argumentCount(1...1)
            guard !arguments[0].isEmpty else { break }
            guard let value = OutputFormat(extension: arguments[0]) else {
                throw invalid("unknown format '\(arguments[0])' (\(OutputFormat.namesForMessages))")
            }
            format = value
        case "circle", "ci":
            try argumentCount(1...1)
            if let value = try boolean(arguments[0]) { circle = value }
        case "rounded", "rc":
            try argumentCount(1...1)
            if let radius = try number(arguments[0], "radius", in: 0...Double(Self.maximumDimension)) {
                roundedCornerRadius = radius == 0 ? nil : radius
            }
        default:
            throw ServeError(.badRequest, "unknown option '\(name)' in '\(segment)'")
        }
    }
}
