import DecoderSVG
import Foundation
import NukeCore
import NukeTestKit
import Testing

@Suite("SVG decoder safety")
struct SVGSafetyTests {
    @Test("an <image> embedded as a data: URL renders (the control for the tests below)")
    func dataURLRenders() throws {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">
              <image href="data:image/png;base64,\(redPNG.base64EncodedString())" width="8" height="8"/>
            </svg>
            """
        let image = try render(svg)
        #expect(image.pixel(x: 4, y: 4) == PlatformImage.RGBA(r: 255, g: 0, b: 0, a: 255))
    }

    @Test("an <image> referencing a local file is not loaded")
    func fileReferenceNotLoaded() throws {
        // Given the same red PNG as a file next to nothing in particular
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("red.png")
        try redPNG.write(to: file)
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">
              <image href="\(file.absoluteString)" width="8" height="8"/>
              <image href="\(file.path)" width="8" height="8"/>
              <image href="red.png" width="8" height="8"/>
              <image href="file:///etc/passwd" width="8" height="8"/>
            </svg>
            """

        // When
        let image = try render(svg)

        // Then nothing was drawn
        #expect(visiblePixelCount(image) == 0)
    }

    @Test("XInclude of /etc/passwd and external entities are not loaded")
    func textInclusionNotLoaded() throws {
        let include = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" width="400" height="40">
              <text x="0" y="30" font-size="20"><xi:include href="file:///etc/passwd" parse="text"/></text>
              <text x="0" y="30" font-size="20"><xi:include href="/etc/passwd" parse="text"/></text>
            </svg>
            """
        let entity = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <svg xmlns="http://www.w3.org/2000/svg" width="400" height="40">
              <text x="0" y="30" font-size="20">&secret;</text>
            </svg>
            """
        let control = """
            <svg xmlns="http://www.w3.org/2000/svg" width="400" height="40">
              <text x="0" y="30" font-size="20">root:x:0:0:root</text>
            </svg>
            """

        #expect(visiblePixelCount(try render(control)) > 0)
        #expect(visiblePixelCount(try render(include)) == 0)
        if let image = try? render(entity) {
            #expect(visiblePixelCount(image) == 0)
        }
    }

    @Test("http references are never fetched: a loopback listener sees no connection")
    func httpReferenceNotFetched() throws {
        // Given a listener on 127.0.0.1 and a document pointing everything it can at it
        let listener = try LoopbackListener()
        let base = "http://127.0.0.1:\(listener.port)"
        let svg = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [<!ENTITY remote SYSTEM "\(base)/entity.txt">]>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" width="16" height="16">
              <style>@import url("\(base)/style.css");</style>
              <image href="\(base)/image.png" width="16" height="16"/>
              <use href="\(base)/sprites.svg#icon"/>
              <rect width="16" height="16" fill="url(\(base)/paint.svg#gradient)"/>
              <text><xi:include href="\(base)/text.txt" parse="text"/>&remote;</text>
            </svg>
            """

        // When
        _ = try? render(svg)

        // Then (rendering is synchronous, so any connection would already be in the accept queue)
        #expect(!listener.hasPendingConnection)
    }

    @Test("the loopback listener does see a connection (the control for the test above)")
    func listenerSeesConnections() throws {
        let listener = try LoopbackListener()
        #expect(!listener.hasPendingConnection)
        try LoopbackListener.connect(port: listener.port)
        #expect(listener.hasPendingConnection)
    }

    @Test("a document claiming 100000×100000 pixels is rejected before rendering")
    func hostileSize() throws {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100000\" height=\"100000\"/>"
        #expect(
            throws: ImageDecoders.SVG.Error.imageTooLarge(
                width: 100_000, height: 100_000, maximumPixelCount: 100_000_000)
        ) {
            try render(svg)
        }
        #expect(
            throws: ImageDecoders.SVG.Error.imageTooLarge(
                width: Int.max, height: Int.max, maximumPixelCount: 100_000_000)
        ) {
            try render("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1e30\" height=\"1e30\"/>")
        }
        // A thumbnail of the same document is fine.
        #expect(try render(svg, thumbnail: .init(maxPixelSize: 64)).width == 64)
    }

    @Test("a side longer than cairo's 32767 pixels is rejected even within the pixel budget")
    func hostileSide() {
        #expect(throws: ImageDecoders.SVG.Error.imageTooLarge(width: 40000, height: 1, maximumPixelCount: 100_000_000))
        {
            try render("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40000\" height=\"1\"/>")
        }
    }

    @Test("empty data and malformed XML throw typed errors with librsvg's message")
    func invalid() {
        #expect(throws: ImageDecoders.SVG.Error.emptyData) { try ImageDecoders.SVG().decode(Data()) }
        let error = #expect(throws: ImageDecoders.SVG.Error.self) {
            try ImageDecoders.SVG().decode(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8))
        }
        guard case let .invalidData(message) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(!message.isEmpty)
    }

    @Test("entity expansion bombs are stopped by the XML parser's limits")
    func billionLaughs() {
        var entities = "<!ENTITY l0 \"lol\">"
        for level in 1...12 {
            entities += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        let svg = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [\(entities)]>
            <svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&l12;</text></svg>
            """
        #expect(throws: ImageDecoders.SVG.Error.self) { try ImageDecoders.SVG().decode(Data(svg.utf8)) }
    }

    @Test("every truncation and 300 random mutations return or throw, never crash")
    func corruptionSweep() {
        let sample = Data(twoHalves.utf8)

        let report = CorruptionSweep.run(decoder: ImageDecoders.SVG(), sample: sample, mutationCount: 300)

        #expect(report.total == sample.count + 300)
        #expect(report.thrown > 0)
        #expect(report.errorDescriptions.allSatisfy { $0.hasPrefix("SVG") })
    }
}
