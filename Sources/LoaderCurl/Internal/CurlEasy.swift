import Foundation
internal import CCurlShim
internal import CLibCurl

/// The one owner of a `CURL *` easy handle, its header list and its error buffer; `deinit` frees them with
/// curl's own functions.
///
/// Configured on the thread that calls `loadData`, then handed to the loop thread through the multi loop's
/// locked state, and used only there afterwards — until the loop ``reset()``s it into its engine's
/// ``CurlEasyPool``, from which the next `loadData` takes it.
final class CurlEasy: @unchecked Sendable {
    // @unchecked: the handle is used by one thread at a time — the creating thread until it's submitted,
    // the loop thread after, and (through the pool) the next transfer's creating thread; every hand-over goes
    // through a lock, which orders the accesses.
    let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(CurlError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = curl_easy_init() else {
            throw .transferFailed(code: .init(rawValue: 2), message: "curl_easy_init failed", url: nil)
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        // Can't fail: ERRORBUFFER exists in every libcurl.
        _ = CCurlShim_easy_setopt_pointer(handle, CCurlShim_OPT_ERRORBUFFER, errorBuffer)
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// Puts every option back to its default (`curl_easy_reset`), as if the handle were new, keeping what curl
    /// keeps across a reset (its receive buffer, DNS and TLS session caches); the connections belong to the multi
    /// handle. Call only when the handle is in no multi handle.
    func reset() {
        curl_easy_reset(handle)
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer[0] = 0
        // Can't fail: ERRORBUFFER exists in every libcurl.
        _ = CCurlShim_easy_setopt_pointer(handle, CCurlShim_OPT_ERRORBUFFER, errorBuffer)
    }

    func set(_ option: CURLoption, _ value: Int) throws(CurlError) {
        try check(CCurlShim_easy_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(CurlError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlError) {
        try check(CCurlShim_easy_setopt_off_t(handle, option, curl_off_t(value)), option)
    }

    /// Sets a string option; curl copies the string.
    func set(_ option: CURLoption, _ value: String) throws(CurlError) {
        let code = value.withCString { CCurlShim_easy_setopt_string(handle, option, $0) }
        try check(code, option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(CCurlShim_easy_setopt_pointer(handle, option, pointer), option)
    }

    func set(_ option: CURLoption, callback: curl_write_callback) throws(CurlError) {
        try check(CCurlShim_easy_setopt_write_callback(handle, option, callback), option)
    }

    /// Sets the request body; curl copies the bytes (`CURLOPT_COPYPOSTFIELDS`). Set the size first.
    func setCopiedBody(_ body: Data) throws(CurlError) {
        var bytes = [UInt8](body)
        let code = bytes.withUnsafeMutableBytes {
            CCurlShim_easy_setopt_pointer(handle, CCurlShim_OPT_COPYPOSTFIELDS, $0.baseAddress)
        }
        try check(code, CCurlShim_OPT_COPYPOSTFIELDS)
    }

    func set(_ option: CURLoption, progressCallback: curl_xferinfo_callback) throws(CurlError) {
        try check(CCurlShim_easy_setopt_xferinfo_callback(handle, option, progressCallback), option)
    }

    /// Replaces the request headers (`"Name: value"` lines). The list lives as long as the handle.
    func setHeaders(_ lines: [String]) throws(CurlError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let appended = line.withCString({ curl_slist_append(list, $0) }) else {
                curl_slist_free_all(list)
                throw .transferFailed(code: .init(rawValue: 27), message: "out of memory (headers)", url: nil)
            }
            list = appended
        }
        let code = CCurlShim_easy_setopt_slist(handle, CCurlShim_OPT_HTTPHEADER, list)
        curl_slist_free_all(headerList)
        headerList = list
        try check(code, CCurlShim_OPT_HTTPHEADER)
    }

    /// The last response's status code, or 0 before one arrived.
    var responseCode: Int {
        var code = 0
        _ = CCurlShim_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// The number of redirects followed so far.
    var redirectCount: Int {
        var count = 0
        _ = CCurlShim_easy_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &count)
        return count
    }

    /// The last response's `Content-Length` (for a compressed body, the compressed size), or `nil` when the
    /// response announced none.
    var contentLength: Int64? {
        var length: curl_off_t = -1
        guard CCurlShim_easy_getinfo_off_t(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK,
            length >= 0
        else { return nil }
        return Int64(length)
    }

    /// `true` when the last response came over HTTP/2 or later (so the connection multiplexes).
    var usedMultiplexingProtocol: Bool {
        var version = 0
        _ = CCurlShim_easy_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
        return version >= Int(CURL_HTTP_VERSION_2_0)
    }

    /// The URL of the last request (after redirects).
    var effectiveURL: String? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard CCurlShim_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK,
            let pointer
        else { return nil }
        return String(cString: pointer)
    }

    /// curl's detailed message for the last failure, or its generic description of `code`.
    func message(for code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
        return detail.isEmpty ? code.message : detail
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(CurlError) {
        guard code != CURLE_OK else { return }
        let message = "setting option \(option.rawValue) failed: \(code.message)"
        throw .transferFailed(code: CurlError.Code(code), message: message, url: nil)
    }
}
