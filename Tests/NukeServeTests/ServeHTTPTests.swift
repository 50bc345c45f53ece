import Foundation
import NukeServe
import Testing

@Suite struct ServeHTTPTests {
    @Test func requestHeadersAreLowercasedAndRepeatedFieldsJoined() {
        let request = ServeRequest(
            method: "GET", path: "/x", headers: ["Accept": "image/avif", "X-A": "1", "x-a": "2"])

        #expect(request.header("accept") == "image/avif")
        #expect(request.header("ACCEPT") == "image/avif")
        #expect(request.headers["x-a"] == "1, 2" || request.headers["x-a"] == "2, 1")
    }

    @Test func responseHeadersKeepTheirOrderAndAreFoundInAnyCase() {
        let response = ServeResponse(status: 200, headers: [("Content-Type", "image/png"), ("Vary", "Accept")])

        #expect(response.header("content-type") == "image/png")
        #expect(response.headers.map(\.name) == ["Content-Type", "Vary"])
        #expect(response.header("ETag") == nil)
    }
}
