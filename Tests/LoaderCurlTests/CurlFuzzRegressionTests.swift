import Foundation
import Testing

@_spi(Fuzzing) import LoaderCurl
@_spi(Fuzzing) import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Inputs the `http-headers` fuzz target (Fuzz/) found, replayed as the target reads them: a status byte
/// (100 + n % 500), the byte count of the interrupted download (1 + n), its expected length (4n − 1), then
/// header lines as curl delivers them.
@Suite struct CurlFuzzRegressionTests {
    /// The fuzz input `Tests/Fixtures/fuzz/<name>`.
    static func fixture(_ name: String) throws -> [UInt8] {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        return [UInt8](try Data(contentsOf: tests.appendingPathComponent("Fixtures/fuzz/\(name)")))
    }

    @Test func anETagWithANULIsNoValidatorToResumeWith() throws {
        // Given a 206 whose only validator is `etag: \0` (curl delivers the line as it came)
        let input = try Self.fixture("http-headers-nul-validator")
        let statusCode = 100 + Int(input[0]) % 500
        let received = 1 + Int(input[1])
        let expectedLength = Int64(input[2]) * 4 - 1
        let lines = input[3...].split(separator: UInt8(ascii: "\n")).map { Array($0) }
        let url = URL(string: "https://example.com/image.jpg")!
        let parsed = CurlFuzzing.parseResponse(lines: lines, url: url, statusCode: statusCode)
        let response = try #require(parsed.response)
        #expect(response.statusCode == 206)
        #expect(response.value(forHTTPHeaderField: "ETag") == "\0")

        // When the download is interrupted after `received` bytes
        let resume = NukeCoreFuzzing.resume(
            response: response, data: Data(count: received), expectedLength: expectedLength,
            previousValidator: nil, nextResponse: response)

        // Then nothing is kept: a range request would have gone out without its If-Range
        #expect(resume == nil)
    }

    @Test func anHTTPVersionThatIsNotDigitsIsReadAsHTTP11() throws {
        // Given a status line whose version is "HTTP/" and then a combining mark, a tab and text: by characters
        // it didn't even start with "HTTP/" (the "/" and the mark are one character)
        let input = try Self.fixture("http-headers-combining-version")
        let statusCode = 100 + Int(input[0]) % 500
        let lines = input[3...].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Array($0) }
        let block = Array(lines.prefix { !$0.isEmpty && $0 != [UInt8(ascii: "\r")] })
        let url = URL(string: "https://example.com/image.jpg")!

        // When it is parsed
        let parsed = CurlFuzzing.parseResponse(lines: block, url: url, statusCode: statusCode)

        // Then the version is the default, and well-formed ones are kept
        #expect(parsed.httpVersion == "HTTP/1.1")
        for version in ["HTTP/1.0", "HTTP/2", "HTTP/3"] {
            let line = Array("\(version) 200 OK".utf8)
            #expect(CurlFuzzing.parseResponse(lines: [line], url: url, statusCode: 200).httpVersion == version)
        }
        for junk in ["HTTP/", "HTTP/1.1\t", "HTTP/x", "HTTP/123456789"] {
            let line = Array("\(junk) 200 OK".utf8)
            #expect(CurlFuzzing.parseResponse(lines: [line], url: url, statusCode: 200).httpVersion == "HTTP/1.1")
        }
    }
}
