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
struct CacheTestsCheckFailure: Error {
    let isSetup: Bool
    let message: String
}

/// What a `data(for:)` client sees of one response.
struct CacheTestsResponse {
    /// The loader's response; `nil` for a disk cache hit, for which the pipeline hands over the bytes only.
    let http: HTTPURLResponse?
    let body: Data
    /// The status of the stored response, from the entry's metadata (`ImagePipeline.Cache.cachedHTTPMetadata(for:)`).
    let storedStatus: Int?
    /// The status of a response outside 2xx: `data(for:)` throws `dataLoadingFailed` with the loader's error, which
    /// carries the status (`HTTPStatusCodeError`) but neither the body nor the headers.
    var errorStatus: Int?
    /// Whether the error status is a stored one (`CachedHTTPStatusError`): the origin wasn't asked.
    var isStoredError = false

    /// The status the client sees: the stored response's for a disk hit or a `304` that revalidated the stored bytes.
    var status: Int {
        if let errorStatus { return errorStatus }
        guard let http, http.statusCode != 304 else { return storedStatus ?? 200 }
        return http.statusCode
    }

    func header(_ name: String) -> String? { http?.value(forHTTPHeaderField: name) }

    /// Whether the client sees the headers of the response it got: not for a disk hit (no response), nor for a
    /// revalidation, where it gets the `304`'s headers, not the stored response's updated with them, nor for a status
    /// outside 2xx (an error).
    var hasHeaders: Bool { errorStatus == nil && http != nil && http?.statusCode != 304 }
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
            var responses: [CacheTestsResponse] = []
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
        _ request: CacheTestsJSON, number: Int, test: CacheTestsTest, uuid: String, previous: CacheTestsResponse?,
        pipeline: ImagePipeline
    ) async throws -> CacheTestsResponse {
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
            return CacheTestsResponse(http: http, body: data, storedStatus: stored?.statusCode)
        } catch ImagePipeline.Error.dataLoadingFailed(let error as CachedHTTPStatusError) {
            // A stored error status, fresh: the pipeline answered without asking the origin.
            return CacheTestsResponse(
                http: nil, body: Data(), storedStatus: error.statusCode, errorStatus: error.statusCode,
                isStoredError: true)
        } catch ImagePipeline.Error.dataLoadingFailed(let error as any HTTPStatusCodeError)
            where error.httpStatusCode != nil
        {
            // A status outside 2xx the origin answered (the loader's error).
            return CacheTestsResponse(http: nil, body: Data(), storedStatus: nil, errorStatus: error.httpStatusCode)
        } catch {
            throw CacheTestsCheckFailure(isSetup: true, message: "Request \(number) failed: \(error)")
        }
    }
}

extension CacheTestsJSON {
    /// The suite's `setupCheck`: whether a failed check of `member` means the test couldn't be judged.
    func isSetup(for member: String) -> Bool {
        self["setup"]?.bool == true || (self["setup_tests"]?.array ?? []).contains(.string(member))
    }
}
