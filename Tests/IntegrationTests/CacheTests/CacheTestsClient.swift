import CacheDisk
import Foundation
import LoaderCurl

@testable import NukeCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one test of the suite ended, by the suite's client rules (`test-engine/client/test.mjs`): a pass, or a failure
/// of a setup check (the test could not be judged) or of an assertion (the cache did the wrong thing).
enum CacheTestsOutcome: Sendable, Equatable {
    case pass
    case setupFailure(String)
    case assertionFailure(String)

    var isPass: Bool { self == .pass }
}

/// A failed check, as the suite's `assert(isSetup, expression, message)` raises it.
private struct CacheTestsCheckFailure: Error {
    let isSetup: Bool
    let message: String
}

private func check(_ isSetup: Bool, _ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CacheTestsCheckFailure(isSetup: isSetup, message: message()) }
}

/// What a `data(for:)` client sees of one response.
private struct ObservedResponse {
    /// The loader's response; `nil` for a disk cache hit, for which the pipeline hands over the bytes only.
    let http: HTTPURLResponse?
    let body: Data
    /// The status of the stored response, from the entry's metadata (`ImagePipeline.Cache.cachedHTTPMetadata(for:)`).
    let storedStatus: Int?

    /// The status the client sees: the stored response's for a disk hit or a `304` that revalidated the stored bytes.
    var status: Int {
        guard let http, http.statusCode != 304 else { return storedStatus ?? 200 }
        return http.statusCode
    }

    func header(_ name: String) -> String? { http?.value(forHTTPHeaderField: name) }

    /// Whether the client sees the headers of the response it got: not for a disk hit (no response), nor for a
    /// revalidation, where it gets the `304`'s headers, not the stored response's updated with them.
    var hasHeaders: Bool { http != nil && http?.statusCode != 304 }
}

/// Replays one test through a pipeline of its own that follows HTTP caching headers: a `CurlDataLoader`, a fresh
/// `DataCache` in a temporary directory, no memory cache.
struct CacheTestsClient {
    let origin: CacheTestsOrigin

    /// Runs `test` under a new UUID. Requests go one after another; `pause_after` waits the suite's 3 s.
    func run(_ test: CacheTestsTest) async -> CacheTestsOutcome {
        let uuid = UUID().uuidString.lowercased()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-tests-\(uuid)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let cache = try DataCache(path: directory)
            defer { cache.flush() }
            let pipeline = ImagePipeline {
                $0.dataLoader = CurlDataLoader()
                $0.dataCache = cache
                $0.imageCache = nil
                $0.httpCachePolicy = .followHeaders
            }
            let requests = test.requests.map { request -> CacheTestsJSON in
                guard case var .object(fields) = request else { return request }
                fields["id"] = .string(test.id)
                return .object(fields)
            }
            try await origin.configure(uuid: uuid, requests: requests)
            var responses: [ObservedResponse] = []
            for (index, request) in requests.enumerated() {
                let response = try await send(
                    request, number: index + 1, test: test, uuid: uuid,
                    previous: responses.last, pipeline: pipeline)
                try checkResponse(response, request: request, number: index + 1, uuid: uuid)
                responses.append(response)
                if request["pause_after"]?.bool == true {
                    try await Task.sleep(for: .seconds(3))  // The suite's pause: lets freshness run out.
                }
            }
            try checkServerRequests(requests, responses: responses, state: try await origin.state(uuid: uuid))
            return .pass
        } catch let failure as CacheTestsCheckFailure {
            return failure.isSetup ? .setupFailure(failure.message) : .assertionFailure(failure.message)
        } catch {
            return .setupFailure("\(error)")
        }
    }

    private func send(
        _ request: CacheTestsJSON, number: Int, test: CacheTestsTest, uuid: String, previous: ObservedResponse?,
        pipeline: ImagePipeline
    ) async throws -> ObservedResponse {
        let url = origin.testURL(uuid: uuid, filename: request["filename"]?.string, query: request["query_arg"]?.string)
        var urlRequest = URLRequest(url: url)
        for header in request["request_headers"]?.array ?? [] {
            guard let pair = header.array, pair.count >= 2, let name = pair[0].string else { continue }
            var value = pair[1].headerText
            if request["magic_ims"]?.bool == true, name.lowercased() == "if-modified-since",
                let delta = pair[1].number
            {
                let now = previous?.header("Server-Now").flatMap(Double.init) ?? Date().timeIntervalSince1970 * 1000
                value = HTTPDate.format(now / 1000 + delta)
            }
            urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        urlRequest.setValue(test.id, forHTTPHeaderField: "Test-ID")
        urlRequest.setValue(String(number), forHTTPHeaderField: "Req-Num")
        do {
            let request = ImageRequest(urlRequest: urlRequest)
            let (data, response) = try await pipeline.data(for: request)
            let http = response as? HTTPURLResponse
            let stored = http == nil || http?.statusCode == 304 ? pipeline.cache.cachedHTTPMetadata(for: request) : nil
            return ObservedResponse(http: http, body: data, storedStatus: stored?.statusCode)
        } catch {
            throw CacheTestsCheckFailure(isSetup: true, message: "Request \(number) failed: \(error)")
        }
    }

    /// `checkResponse` of the suite's client: where the response came from, its status, headers and body.
    private func checkResponse(_ response: ObservedResponse, request: CacheTestsJSON, number: Int, uuid: String) throws
    {
        // A disk hit has no response, so no Server-Request-Count: the server never saw the request.
        let served = response.http == nil ? 0 : response.header("Server-Request-Count").flatMap(Int.init)
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

    /// The expected and unexpected response headers, when the client sees them (``ObservedResponse/hasHeaders``):
    /// a `data(for:)` client can't check the headers of a disk hit or of a revalidated response, so those checks are
    /// left out.
    private func checkHeaders(_ response: ObservedResponse, request: CacheTestsJSON, number: Int) throws {
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
    private func fixup(
        name: String, value: CacheTestsJSON, response: ObservedResponse, request: CacheTestsJSON
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

    private func checkBody(_ response: ObservedResponse, request: CacheTestsJSON, uuid: String) throws {
        let body = String(decoding: response.body, as: UTF8.self)
        if request["check_body"]?.bool == false { return }
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
    private func checkServerRequests(
        _ requests: [CacheTestsJSON], responses: [ObservedResponse], state: [CacheTestsJSON]
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

extension CacheTestsJSON {
    /// The suite's `setupCheck`: whether a failed check of `member` means the test couldn't be judged.
    fileprivate func isSetup(for member: String) -> Bool {
        self["setup"]?.bool == true || (self["setup_tests"]?.array ?? []).contains(.string(member))
    }
}
