import Testing

@testable import LoaderCurl

@Suite("CurlResponseHeaders")
struct CurlResponseHeadersTests {
    @Test func fieldsAreTrimmedAndTheVersionComesFromTheStatusLine() {
        // Given a header block as curl's callback delivers it
        let headers = block(["HTTP/2 200 \r\n", "content-type:  image/png \r\n", "ETag: \"abc\"\r\n", "\r\n"])

        // Then names keep their spelling, values are trimmed, and the version is the status line's
        #expect(headers.httpVersion == "HTTP/2")
        #expect(headers.fields == ["content-type": "image/png", "ETag": "\"abc\""])
    }

    @Test func repeatedNamesAreJoinedUnderTheirFirstSpelling() {
        // Given a name repeated in different cases
        let headers = block(["HTTP/1.1 200 OK\r\n", "Vary: Accept\r\n", "vary: Origin\r\n", "VARY: Cookie\r\n"])

        // Then the values are joined in order under the first spelling
        #expect(headers.fields == ["Vary": "Accept, Origin, Cookie"])
    }

    @Test func aNewStatusLineStartsANewBlock() {
        // Given a redirect's headers followed by the final response's
        let headers = block([
            "HTTP/1.1 301 Moved\r\n", "Location: /b\r\n", "\r\n", "HTTP/1.0 200 OK\r\n", "Content-Length: 3\r\n",
        ])

        // Then only the final block remains
        #expect(headers.httpVersion == "HTTP/1.0")
        #expect(headers.fields == ["Content-Length": "3"])
    }

    @Test func linesWithoutANameOrColonAreIgnored() {
        // Given malformed lines among good ones
        let headers = block(["HTTP/1.1 200 OK\r\n", ": no name\r\n", "garbage\r\n", "A: 1\r\n", "B:\r\n"])

        // Then only the well-formed fields remain (an empty value is kept)
        #expect(headers.fields == ["A": "1", "B": ""])
    }

    @Test func aLongBlockIsJoinedLikeAShortOne() {
        // Given more lines than the byte-by-byte search handles, with names repeated in other cases
        var lines = ["HTTP/1.1 200 OK\r\n"]
        for index in 0..<40 { lines.append("X-Field-\(index % 20): \(index)\r\n") }
        lines.append("x-field-0: last\r\n")
        let headers = block(lines)

        // Then repeats are joined under the first spelling, in order
        let fields = headers.fields
        #expect(fields.count == 20)
        #expect(fields["X-Field-0"] == "0, 20, last")
        #expect(fields["X-Field-19"] == "19, 39")
    }

    private func block(_ lines: [String]) -> CurlResponseHeaders {
        var headers = CurlResponseHeaders()
        for line in lines {
            var bytes = Array(line.utf8CString.dropLast())
            bytes.withUnsafeMutableBufferPointer { headers.append(line: UnsafeBufferPointer($0)) }
        }
        return headers
    }

    @Test func onlyContentAndTransferCodingsCurlLacksAreUnknown() {
        func names(_ line: String) -> Bool {
            Array(line.utf8).withUnsafeBytes { CurlContentCoding.namesUnknownCoding($0, decodable: ["gzip", "br"]) }
        }
        #expect(names("Content-Encoding: zstd\r\n"))
        #expect(names("content-encoding: gzip, foo\r\n"))
        #expect(names("Transfer-Encoding: foo, chunked\r\n"))
        #expect(!names("Content-Encoding: GZIP , br\r\n"))
        #expect(!names("Transfer-Encoding: chunked\r\n"))
        #expect(!names("Content-Encoding:\r\n"))
        #expect(!names("X-Content-Encoding: foo\r\n"))
        #expect(!names("Content-Type: foo\r\n"))
    }
}
