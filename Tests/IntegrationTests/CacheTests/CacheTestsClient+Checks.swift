import Foundation

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The checks of the suite's client (`test-engine/client/test.mjs`), on what a `data(for:)` client sees.
extension CacheTestsClient {
    /// The suite's `assert(isSetup, expression, message)`.
    private func check(_ isSetup: Bool, _ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CacheTestsCheckFailure(isSetup: isSetup, message: message()) }
    }

    /// `checkResponse` of the suite's client: where the response came from, its status, headers and body.
    func checkResponse(_ response: CacheTestsResponse, request: CacheTestsJSON, number: Int, uuid: String) throws {
        // A disk hit has no response, so no Server-Request-Count: the server never saw the request, nor did it see
        // one answered by a stored error status. The loader's error for a status has no headers either, but the
        // origin answered it (the server's own record, checkServerRequests, says so too).
        let served: Int? =
            if response.isStoredError {
                0
            } else if response.errorStatus != nil {
                number
            } else if response.http == nil {
                0
            } else {
                response.header("Server-Request-Count").flatMap(Int.init)
            }
        if let numbers = response.header("Request-Numbers")?.split(separator: " ") {
            try check(true, numbers.count == Set(numbers).count, "retry")
        }
        if let type = request["expected_type"]?.string {
            let isSetup = request.isSetup(for: "expected_type")
            if type == "cached" {
                try check(isSetup, served.map { $0 < number } ?? false, "Response \(number) does not come from cache")
            }
            if type == "not_cached" {
                try check(isSetup, served == number, "Response \(number) comes from cache")
            }
        }
        if let expected = request["expected_status"]?.number {
            try check(
                request.isSetup(for: "expected_status"), response.status == Int(expected),
                "Response \(number) status is \(response.status), not \(Int(expected))")
        } else if let status = request["response_status"]?.array?.first?.number {
            try check(
                true, response.status == Int(status),
                "Response \(number) status is \(response.status), not \(Int(status))")
        } else if response.status == 999 {
            try check(
                request.isSetup(for: "expected_type"), false,
                "Request \(number) should have been conditional, but it was not.")
        } else {
            try check(true, response.status == 200, "Response \(number) status is \(response.status), not 200")
        }
        try checkHeaders(response, request: request, number: number)
        try checkBody(response, request: request, uuid: uuid)
    }

    /// The expected and unexpected response headers, when the client sees them (``CacheTestsResponse/hasHeaders``):
    /// a `data(for:)` client can't check the headers of a disk hit or of a revalidated response, so those checks are
    /// left out.
    func checkHeaders(_ response: CacheTestsResponse, request: CacheTestsJSON, number: Int) throws {
        guard response.hasHeaders else { return }
        let isSetup = request.isSetup(for: "expected_response_headers")
        for header in request["expected_response_headers"]?.array ?? [] {
            if let name = header.string {
                try check(isSetup, response.header(name) != nil, "Response \(number) \(name) header not present.")
                continue
            }
            guard let parts = header.array, parts.count >= 2, let name = parts[0].string else { continue }
            let value = response.header(name)
            if parts.count > 2 {
                try check(isSetup, value != nil, "Response \(number) \(name) header not present.")
                let operation = parts[1].string
                if operation == "=" {
                    let other = response.header(parts[2].headerText)
                    try check(
                        isSetup, value == other,
                        "Response \(number) header \(name) is \(value ?? "null"), should match \(parts[2].headerText)")
                } else if operation == ">" {
                    let bound = parts[2].number ?? 0
                    try check(
                        isSetup, (value.flatMap { Double($0.prefix { $0.isNumber }) } ?? -.infinity) > bound,
                        "Response \(number) header \(name) is \(value ?? "null"), should be bigger than \(bound)")
                }
                continue
            }
            let expected = fixup(name: name, value: parts[1], response: response, request: request)
            try check(
                isSetup, value == expected,
                "Response \(number) header \(name) is \"\(value ?? "null")\", not \"\(expected)\"")
        }
        let missingSetup = request.isSetup(for: "expected_response_headers_missing")
        for header in request["expected_response_headers_missing"]?.array ?? [] {
            // The suite's client never fails the [name, value] form (it reads the value from a property that
            // doesn't exist), so only plain names are checked.
            guard let name = header.string else { continue }
            try check(
                missingSetup, response.header(name) == nil,
                "Response \(number) includes unexpected header \(name): \"\(response.header(name) ?? "")\"")
        }
    }

    /// The suite's `fixupHeader`: a number for a date header is seconds from the response's `Server-Now`; a
    /// location is relative to its `Server-Base-Url` when `magic_locations` is set.
    func fixup(
        name: String, value: CacheTestsJSON, response: CacheTestsResponse, request: CacheTestsJSON
    )
        -> String
    {
        let lowered = name.lowercased()
        let dates: Set = ["date", "expires", "last-modified", "if-modified-since", "if-unmodified-since"]
        if dates.contains(lowered), let delta = value.number {
            let now = response.header("Server-Now").flatMap(Double.init) ?? 0
            return HTTPDate.format(now / 1000 + delta)
        }
        if ["location", "content-location"].contains(lowered), request["magic_locations"]?.bool == true {
            let base = response.header("Server-Base-Url") ?? ""
            return value.headerText.isEmpty ? base : "\(base)/\(value.headerText)"
        }
        return value.headerText
    }

    func checkBody(_ response: CacheTestsResponse, request: CacheTestsJSON, uuid: String) throws {
        let body = String(decoding: response.body, as: UTF8.self)
        if request["check_body"]?.bool == false { return }
        // An error status has no body for a data(for:) client (CacheTestsTest.answersWithErrorStatus).
        if response.errorStatus != nil { return }
        if let expected = request["expected_response_text"] {
            if let text = expected.string {
                try check(
                    request.isSetup(for: "expected_response_text"), body == text,
                    "Response body is \"\(body)\", not \"\(text)\"")
            }
        } else if let expected = request["response_body"], expected != .null {
            try check(true, body == expected.headerText, "Response body is \"\(body)\", not \"\(expected.headerText)\"")
        } else if ![204, 304].contains(response.status) {
            try check(true, body == uuid, "Response body is \"\(body)\", not \"\(uuid)\"")
        }
    }

    /// `checkServerRequests` of the suite's client: what the server saw of the requests that reached it.
    func checkServerRequests(
        _ requests: [CacheTestsJSON], responses: [CacheTestsResponse], state: [CacheTestsJSON]
    ) throws {
        var serverIndex = 0
        for (index, request) in requests.enumerated() {
            let number = index + 1
            let seen = serverIndex < state.count ? state[serverIndex] : nil
            let isSetup = request.isSetup(for: "expected_type")
            var validators: [String] = []
            switch request["expected_type"]?.string {
            case "cached":
                continue  // The server doesn't see it.
            case "not_cached":
                let seenNumber = seen?["request_num"]?.number.map(Int.init)
                try check(
                    isSetup, seenNumber == number,
                    "Response \(number) comes from cache (\(seenNumber.map(String.init) ?? "none") on server)")
            case "etag_validated": validators.append("if-none-match")
            case "lm_validated": validators.append("if-modified-since")
            default: break
            }
            serverIndex += 1
            let seenHeaders = seen?["request_headers"]
            for validator in validators {
                try check(isSetup, seen != nil, "request \(number) wasn't sent to server")
                try check(isSetup, seenHeaders?[validator] != nil, "request \(number) doesn't have \(validator) header")
            }
            let presentSetup = request.isSetup(for: "expected_request_headers")
            for header in request["expected_request_headers"]?.array ?? [] {
                if let name = header.string {
                    try check(
                        presentSetup, seenHeaders?[name.lowercased()] != nil,
                        "Request \(number) \(name) header not present.")
                } else if let pair = header.array, pair.count >= 2, let name = pair[0].string {
                    let value = seenHeaders?[name.lowercased()]?.headerText
                    try check(
                        presentSetup, value == pair[1].headerText,
                        "Request \(number) header \(name) is \"\(value ?? "undefined")\", not \"\(pair[1].headerText)\""
                    )
                }
            }
            let missingSetup = request.isSetup(for: "expected_request_headers_missing")
            for header in request["expected_request_headers_missing"]?.array ?? [] {
                if let name = header.string {
                    try check(
                        missingSetup, seenHeaders?[name.lowercased()] == nil,
                        "Request \(number) \(name) header present.")
                } else if let pair = header.array, pair.count >= 2, let name = pair[0].string {
                    let value = seenHeaders?[name.lowercased()]?.headerText
                    try check(
                        missingSetup, value != pair[1].headerText,
                        "Request \(number) header \(name) is \"\(value ?? "")\"")
                }
            }
            // The headers the server sent must reach the client as sent (unless the client can't see them).
            guard let seen, index < responses.count, responses[index].hasHeaders,
                let sent = seen["response_headers"]?.array
            else { continue }
            for header in sent {
                guard let pair = header.array, pair.count >= 2, let name = pair[0].string,
                    !["date", "set-cookie", "set-cookie2"].contains(name.lowercased())
                else { continue }
                let expected = pair[1].array.map { $0.map(\.headerText).joined(separator: ", ") } ?? pair[1].headerText
                let received = responses[index].header(name)
                try check(
                    true, received == expected,
                    "Response \(number) header \(name) is \"\(received ?? "null")\", not \"\(expected)\"")
            }
        }
    }
}
