import Foundation

/// A JSON value of the cache-tests suite's files.
enum CacheTestsJSON: Sendable, Equatable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([CacheTestsJSON])
    case object([String: CacheTestsJSON])
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([CacheTestsJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: CacheTestsJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    subscript(key: String) -> CacheTestsJSON? {
        if case let .object(object) = self { object[key] } else { nil }
    }

    var string: String? { if case let .string(value) = self { value } else { nil } }
    var number: Double? { if case let .number(value) = self { value } else { nil } }
    var bool: Bool? { if case let .bool(value) = self { value } else { nil } }
    var array: [CacheTestsJSON]? { if case let .array(value) = self { value } else { nil } }

    /// The value as the suite's JavaScript would print it into a header.
    var headerText: String {
        switch self {
        case let .string(value): value
        case let .number(value): value == value.rounded() ? String(Int(value)) : String(value)
        case let .bool(value): String(value)
        default: ""
        }
    }

}

/// One test of the suite: its requests and what each response must show (`tests.json`, exported from the suite's
/// `tests/*.mjs`).
struct CacheTestsTest: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case required, optimal, check
    }

    let suite: String
    let id: String
    let kind: Kind
    let dependsOn: [String]
    let isBrowserMode: Bool
    let requests: [CacheTestsJSON]

    /// Whether the test checks the headers of a response that should come from the cache (`cached`) or be
    /// revalidated (`etag_validated`, `lm_validated`): a `data(for:)` client sees no headers for a disk hit, and the
    /// `304`'s for a revalidation, so those checks can't be made and the test is judged on the rest.
    var checksStoredHeaders: Bool {
        requests.contains { request in
            let type = request["expected_type"]?.string ?? ""
            let expectations = ["expected_response_headers", "expected_response_headers_missing"].contains {
                !(request[$0]?.array ?? []).isEmpty
            }
            return expectations && ["cached", "etag_validated", "lm_validated"].contains(type)
        }
    }

    /// Whether the origin answers a status outside 2xx (but `304`): `data(for:)` throws `dataLoadingFailed` with the
    /// status and neither body nor headers, so the test is judged on whether the request reached the origin (and
    /// what the origin saw) and on the status alone.
    var answersWithErrorStatus: Bool {
        requests.contains { request in
            guard let status = request["response_status"]?.array?.first?.number else { return false }
            return !(200..<300).contains(Int(status)) && Int(status) != 304
        }
    }

    /// Why a client of `ImagePipeline.data(for:)` can't run the test, or `nil` when it can.
    var notApplicableReason: String? {
        for request in requests {
            if let method = request["request_method"]?.string, method != "GET" {
                return "sends \(method): the pipeline only sends GET"
            }
            if request["request_body"] != nil { return "sends a request body: the pipeline sends none" }
            if request["cache"] != nil { return "sets a fetch cache mode: the pipeline has none" }
            if request["interim_responses"] != nil || request["expected_interim_responses"] != nil {
                return "checks 1xx interim responses: a loader hands over the final response only"
            }
            if request["disconnect"]?.bool == true {
                return "the origin drops the connection: data(for:) throws, there is no response to check"
            }
            let headers = (request["request_headers"]?.array ?? []).compactMap { $0.array?.first?.string?.lowercased() }
            if headers.contains("range") {
                return "sends Range: the pipeline loads whole images (ranges only to resume its own downloads)"
            }
            if request["response_status"]?.array?.first?.number == 204 {
                return "the origin answers 204 with no body: data(for:) throws dataIsEmpty for an empty body"
            }
            if let status = request["response_status"]?.array?.first?.number, (300..<400).contains(Int(status)),
                Int(status) != 304
            {
                return "the origin answers \(Int(status)): the loader follows redirects (a Location) or fails the"
                    + " status, and a data(for:) client sees neither the redirect nor its headers"
            }
        }
        return nil
    }
}

/// The suite: its test groups in order, each with its tests.
struct CacheTestsDefinition: Sendable {
    struct Group: Sendable {
        let id: String
        let name: String
        let tests: [CacheTestsTest]
    }

    let groups: [Group]

    /// Reads `tests.json`.
    init(contentsOf url: URL) throws {
        let root = try JSONDecoder().decode(CacheTestsJSON.self, from: Data(contentsOf: url))
        groups = (root.array ?? []).map { group in
            let id = group["id"]?.string ?? ""
            let tests = (group["tests"]?.array ?? []).map { test in
                CacheTestsTest(
                    suite: id, id: test["id"]?.string ?? "",
                    kind: test["kind"]?.string.flatMap(CacheTestsTest.Kind.init) ?? .required,
                    dependsOn: (test["depends_on"]?.array ?? []).compactMap(\.string),
                    isBrowserMode: test["cdn_only"]?.bool != true && test["browser_skip"]?.bool != true,
                    requests: test["requests"]?.array ?? [])
            }
            return Group(id: id, name: group["name"]?.string ?? id, tests: tests)
        }
    }
}

/// What a browser's published run of the suite says of each test: `true`, or the failure's kind and message.
struct CacheTestsBrowserResults: Sendable {
    let name: String
    let passed: Set<String>

    init(name: String, contentsOf url: URL) throws {
        self.name = name
        let results = try JSONDecoder().decode(CacheTestsJSON.self, from: Data(contentsOf: url))
        guard case let .object(object) = results else {
            passed = []
            return
        }
        passed = Set(object.filter { $0.value == .bool(true) }.keys)
    }
}
