import Foundation
import NukeServe
import Testing

@Suite struct FormatNegotiationTests {
    static let all = Set(OutputFormat.allCases)

    @Test func theURLsFormatWinsWithoutVary() {
        let choice = FormatNegotiation.choose(
            requested: .png, accept: "image/avif,image/webp", source: .jpeg, fallback: .png, available: Self.all)
        #expect(choice == .init(format: .png, dependsOnAccept: false))
    }

    @Test(arguments: [
        ("image/avif,image/webp,image/apng,image/*,*/*;q=0.8", OutputFormat.avif),  // Chrome
        ("image/webp,*/*", .webp),  // Firefox before AVIF
        ("image/avif;q=0,image/webp;q=0.5", .webp),
        ("IMAGE/AVIF", .avif),
        ("image/*,*/*;q=0.8", .jpeg),
        ("", .jpeg),
    ])
    func acceptPicksAVIFThenWebPThenTheSource(_ accept: String, _ expected: OutputFormat) {
        let choice = FormatNegotiation.choose(
            requested: nil, accept: accept, source: .jpeg, fallback: .png, available: Self.all)
        #expect(choice == .init(format: expected, dependsOnAccept: true))
    }

    @Test func formatsWithoutAnEncoderAreSkipped() {
        let choice = FormatNegotiation.choose(
            requested: nil, accept: "image/avif,image/webp", source: nil, fallback: .png, available: [.png, .webp])
        let none = FormatNegotiation.choose(
            requested: nil, accept: nil, source: .avif, fallback: .png, available: [.png, .jpeg])

        #expect(choice.format == .webp)
        #expect(none.format == .png)
    }
}

@Suite struct ResultETagTests {
    @Test func tagsFollowWhatDecidesTheBytes() throws {
        var options = ProcessingOptions()
        options.width = 100
        let body = Data([1, 2, 3])
        let base = ResultETag.make(source: "https://h/a.jpg", options: options, format: .webp, body: body)
        var spelledOtherwise = try ProcessingURL(path: "/_/width:100/rt:fit/plain/https://h/a.jpg").options
        spelledOtherwise.format = nil
        var wider = options
        wider.width = 101

        #expect(base.hasPrefix("\"") && base.hasSuffix("\"") && base.count == 34)
        #expect(
            base == ResultETag.make(source: "https://h/a.jpg", options: spelledOtherwise, format: .webp, body: body))
        #expect(
            base != ResultETag.make(source: "https://h/a.jpg", options: options, format: .webp, body: Data([1, 2])))
        #expect(base != ResultETag.make(source: "https://h/b.jpg", options: options, format: .webp, body: body))
        #expect(base != ResultETag.make(source: "https://h/a.jpg", options: wider, format: .webp, body: body))
        #expect(base != ResultETag.make(source: "https://h/a.jpg", options: options, format: .png, body: body))
    }

    @Test func ifNoneMatchUsesTheWeakComparison() {
        let tag = "\"abc\""
        #expect(ResultETag.matches(ifNoneMatch: "\"abc\"", etag: tag))
        #expect(ResultETag.matches(ifNoneMatch: "W/\"abc\"", etag: tag))
        #expect(ResultETag.matches(ifNoneMatch: "\"x\", W/\"abc\" ", etag: tag))
        #expect(ResultETag.matches(ifNoneMatch: " * ", etag: tag))
        #expect(!ResultETag.matches(ifNoneMatch: "\"abcd\"", etag: tag))
        #expect(!ResultETag.matches(ifNoneMatch: "abc", etag: tag))
        #expect(!ResultETag.matches(ifNoneMatch: "", etag: tag))
    }
}

@Suite struct ResizePlanTests {
    static func plan(_ width: Int, _ height: Int, _ path: String) throws -> ResizePlan {
        ResizePlan(
            sourceWidth: width, sourceHeight: height, options: try ProcessingURL(path: "/_/\(path)/plain/x://").options)
    }

    @Test(arguments: [
        // source, options → scaled size, crop (x, y, w, h)
        ((1600, 1200), "rs:fit:300:300", (300, 225), (0, 0, 300, 225)),
        ((1600, 1200), "rs:fit:300:0", (300, 225), (0, 0, 300, 225)),
        ((1600, 1200), "rs:fit:0:150", (200, 150), (0, 0, 200, 150)),
        ((1600, 1200), "rs:fill:300:300", (400, 300), (50, 0, 300, 300)),
        ((1600, 1200), "rs:fill:300:300/g:we", (400, 300), (0, 0, 300, 300)),
        ((1600, 1200), "rs:fill:300:300/g:ea", (400, 300), (100, 0, 300, 300)),
        ((1200, 1600), "rs:fill:300:300/g:no", (300, 400), (0, 0, 300, 300)),
        ((1200, 1600), "rs:fill:300:300/g:so", (300, 400), (0, 100, 300, 300)),
        ((1200, 1600), "rs:fill:300:300/g:soea", (300, 400), (0, 100, 300, 300)),
        ((1600, 1200), "rs:fill:300:300/g:we:20", (400, 300), (20, 0, 300, 300)),
        ((1600, 1200), "rs:fill:300:300/g:ce:0.1", (400, 300), (90, 0, 300, 300)),
        ((1600, 1200), "rs:force:300:300", (300, 300), (0, 0, 300, 300)),
        ((1600, 1200), "rs:force:300:0", (300, 1200), (0, 0, 300, 1200)),
        ((1600, 1200), "rs:auto:300:200", (300, 225), (0, 13, 300, 200)),
        ((1600, 1200), "rs:auto:200:300", (200, 150), (0, 0, 200, 150)),
        ((100, 80), "rs:fit:300:300", (100, 80), (0, 0, 100, 80)),
        ((100, 80), "rs:fit:300:300:1", (300, 240), (0, 0, 300, 240)),
        // Not enlarged: fill crops to the asked size only where the image is larger (here nowhere).
        ((100, 80), "rs:fill:300:300", (100, 80), (0, 0, 100, 80)),
        ((100, 80), "rs:fill:90:300", (100, 80), (5, 0, 90, 80)),
        ((100, 80), "rs:fill-down:300:150", (100, 80), (0, 15, 100, 50)),
        // dpr is capped where it would enlarge: 1.6 here, so the crop is 80×80 (imgproxy's numbers).
        ((100, 80), "rs:fill:50:50/dpr:2", (100, 80), (10, 0, 80, 80)),
        ((150, 100), "rs:fill:100:100/dpr:2", (150, 100), (25, 0, 100, 100)),
        // Without enlarge, force divides out the enlarging side and keeps its aspect ratio.
        ((150, 100), "rs:force:200:50", (150, 38), (0, 0, 150, 38)),
        ((150, 100), "rs:force:200:50:1", (200, 50), (0, 0, 200, 50)),
        ((1600, 1200), "rs:fit:150:150/dpr:2", (300, 225), (0, 0, 300, 225)),
        ((1600, 1200), "w:0", (1600, 1200), (0, 0, 1600, 1200)),
    ])
    func geometryFollowsImgproxy(
        _ source: (Int, Int), _ options: String, _ scaled: (Int, Int), _ crop: (Int, Int, Int, Int)
    ) throws {
        let plan = try Self.plan(source.0, source.1, options)

        #expect((plan.scaledWidth, plan.scaledHeight) == scaled, "\(options)")
        #expect(plan.crop == .init(x: crop.0, y: crop.1, width: crop.2, height: crop.3), "\(options)")
        #expect((plan.resultWidth, plan.resultHeight) == (crop.2, crop.3))
    }

    @Test func identityIsTheSourceAsIs() throws {
        #expect(try Self.plan(640, 480, "w:0").isIdentity)
        #expect(try Self.plan(640, 480, "rs:fit:1000:1000").isIdentity)
        #expect(try !Self.plan(640, 480, "rs:fit:320:0").isIdentity)
    }
}
