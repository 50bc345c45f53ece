import Foundation
import NukeServe
import Testing

@Suite struct ProcessingURLTests {
    @Test func plainSourceWithOptionsAndExtension() throws {
        let url = try ProcessingURL(
            path: "/sig/rs:fill:300:200:1/g:noea/bl:2.5/q:80/plain/https%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1@webp")

        #expect(url.signature == "sig")
        #expect(
            url.signedPath
                == "/rs:fill:300:200:1/g:noea/bl:2.5/q:80/plain/https%3A%2F%2Fexample.com%2Fa%20b.jpg%3Fv%3D1@webp")
        #expect(url.source == "https://example.com/a b.jpg?v=1")
        #expect(url.options.resizingType == .fill)
        #expect((url.options.width, url.options.height, url.options.enlarge) == (300, 200, true))
        #expect(url.options.gravity == .init(.northEast))
        #expect(url.options.blurSigma == 2.5)
        #expect(url.options.quality == 80)
        #expect(url.options.format == .webp)
    }

    @Test func unencodedPlainSourceKeepsItsSlashesAndUserInfo() throws {
        let url = try ProcessingURL(path: "/unsafe/w:100/plain/http://user@example.com/photos/cat.png")

        #expect(url.source == "http://user@example.com/photos/cat.png")
        #expect(url.options.width == 100)
        #expect(url.options.format == nil)
    }

    @Test func base64SourceMaySplitAcrossSegmentsAndCarriesAnExtension() throws {
        let source = "https://example.com/images/very/long/path/photo.jpeg?width=1"
        let encoded = Base64URL.encode(Array(source.utf8))
        let split = stride(from: 0, to: encoded.count, by: 16).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(
                encoded[from..<(encoded.index(from, offsetBy: 16, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }.joined(separator: "/")

        let url = try ProcessingURL(path: "/insecure/h:50/\(split).png")
        let bare = try ProcessingURL(path: "/_/\(encoded)")

        #expect(url.source == source)
        #expect(url.options.height == 50)
        #expect(url.options.format == .png)
        #expect(bare.source == source && bare.options == ProcessingOptions())
    }

    @Test func aliasesAndLongNamesMeanTheSame() throws {
        let short = try ProcessingURL(path: "/_/rs:fit:10:20/el:t/dpr:2/g:so:5:0.25/f:avif/ci:1/rc:8/plain/http://h/a")
        let long = try ProcessingURL(
            path: "/_/resizing_type:fit/width:10/height:20/enlarge:true/dpr:2/gravity:so:5:0.25/format:avif/"
                + "circle:true/rounded:8/plain/http://h/a")

        #expect(short.options == long.options)
        #expect(short.options.canonicalDescription == long.options.canonicalDescription)
        #expect(short.options.gravity == .init(.south, xOffset: 5, yOffset: 0.25))
        #expect(short.options.circle && short.options.roundedCornerRadius == 8)
    }

    @Test func theExtensionWinsOverTheFormatOption() throws {
        let url = try ProcessingURL(path: "/_/f:png/plain/http://h/a.jpg@jpg")
        #expect(url.options.format == .jpeg)
    }

    @Test(arguments: [
        ("/_/zoom:2/plain/http://h/a", "unknown option 'zoom' in 'zoom:2'"),
        ("/_/rs:stretch:1:1/plain/http://h/a", "unknown resizing type 'stretch'"),
        ("/_/w:-1/plain/http://h/a", "width must be a whole number of pixels from 0 to 16384"),
        ("/_/w:99999/plain/http://h/a", "width must be a whole number"),
        ("/_/dpr:0/plain/http://h/a", "dpr must be a number greater than 0"),
        ("/_/g:middle/plain/http://h/a", "unknown gravity 'middle'"),
        ("/_/q:101/plain/http://h/a", "quality must be a whole number from 0"),
        ("/_/el:maybe/plain/http://h/a", "'maybe' is not a boolean"),
        ("/_/w:1:2/plain/http://h/a", "takes 1 argument"),
        ("/_/f:tiff/plain/http://h/a", "unknown format 'tiff'"),
        ("/_/plain/http://h/a@gif", "unknown extension 'gif'"),
        ("/_/w:10", "no source URL after the options"),
        ("/_/w:10/plain/", "no source URL after the options"),
        ("/_/%%%.png", "not URL-safe base64"),
        ("/_/plain/http%ZZ", "not valid percent-encoding"),
        ("/only-a-signature", "expected /<signature>/<options>/<source>"),
        ("no-slash", "must start with /"),
    ])
    func malformedURLsAre400sThatNameTheCause(_ path: String, _ message: String) {
        #expect {
            try ProcessingURL(path: path)
        } throws: { error in
            guard let error = error as? ServeError else { return false }
            return error.status == 400 && error.message.contains(message)
        }
    }

    @Test func emptyArgumentsKeepWhatIsSet() throws {
        let url = try ProcessingURL(path: "/_/rs:fill:100:50/rs::::1/s::70/plain/http://h/a")

        #expect(url.options.resizingType == .fill)
        #expect((url.options.width, url.options.height, url.options.enlarge) == (100, 70, true))
    }

    @Test func base64RoundTripsAndAcceptsPadding() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(($0 * 37 + 11) % 256) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == bytes)
        }
        #expect(Base64URL.decode("aGk=") == Array("hi".utf8))
        #expect(Base64URL.decode("a") == nil)
    }
}
