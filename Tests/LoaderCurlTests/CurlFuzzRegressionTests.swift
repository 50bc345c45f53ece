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
}
