internal import CCurlShim
internal import CLibCurl

/// Process-wide libcurl set-up, done once before the first handle is created.
enum CurlGlobal {
    /// `CURLE_OK`, or the code `curl_global_init` failed with. Swift runs a static initialiser exactly once,
    /// thread-safely, which is what `curl_global_init` requires.
    static let initResult: CURLcode = CCurlShim_global_init()

    /// The libcurl version string, e.g. `7.88.1`.
    static let version: String = {
        guard let info = curl_version_info(CCurlShim_VERSION_NOW), let version = info.pointee.version else {
            return "unknown"
        }
        return String(cString: version)
    }()

    /// The libcurl version as `0xXXYYZZ` (major, minor, patch).
    static let versionNumber: UInt32 = {
        guard let info = curl_version_info(CCurlShim_VERSION_NOW) else { return 0 }
        return info.pointee.version_num
    }()

    /// libcurl before 8.0 breaks HTTP/2 prior-knowledge connections when a second transfer reuses them
    /// ("Error in the HTTP2 framing layer", curl/curl#10634, fixed by curl/curl#10643 in 8.0.0). Debian 12 ships
    /// 7.88.1.
    static let breaksPriorKnowledgeReuse = versionNumber < 0x08_00_00

    /// Installs the transfers' connect filter in the shim's socket callback, once, before the first transfer that
    /// filters addresses is configured (read it to run it).
    static let installConnectFilter: Void = CCurlShim_set_connect_filter(curlConnectFilter)

    /// Makes sure libcurl is initialised; throws if it couldn't be.
    static func ensureInitialized() throws(CurlError) {
        let result = initResult
        guard result == CURLE_OK else {
            throw .transferFailed(code: CurlError.Code(result), message: "curl_global_init failed", url: nil)
        }
    }
}

extension CurlError.Code {
    init(_ code: CURLcode) {
        self.init(rawValue: Int(code.rawValue))
    }
}

extension CURLcode {
    /// curl's description of the code (`curl_easy_strerror`).
    var message: String {
        guard let text = curl_easy_strerror(self) else { return "error \(rawValue)" }
        return String(cString: text)
    }
}
