import Foundation
internal import CCurlShim
internal import CLibCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CurlEasy {
    /// Sets up the handle for `request` under `configuration`: URL and scheme policy, method, headers, body,
    /// timeouts, redirects, TLS, proxy, HTTP version, compression, and the loader's callbacks.
    func configure(for request: URLRequest, configuration: CurlDataLoader.Configuration) throws(CurlError) {
        let url = try Self.validatedURL(request.url)
        try set(CCurlShim_OPT_URL, url.absoluteString)
        try set(CCurlShim_OPT_PROTOCOLS_STR, "http,https")
        try set(CCurlShim_OPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CCurlShim_OPT_NOSIGNAL, true)
        try set(CCurlShim_OPT_FOLLOWLOCATION, configuration.maximumRedirects > 0)
        try set(CCurlShim_OPT_MAXREDIRS, max(0, configuration.maximumRedirects))
        try configureTimeouts(request.timeoutInterval, configuration: configuration)
        try configureConnection(configuration)
        try configureMethodAndBody(request)
        try setHeaders(Self.headerLines(request, hasBody: request.httpBody?.isEmpty == false))
        try set(CCurlShim_OPT_HEADERFUNCTION, callback: curlHeaderCallback)
        try set(CCurlShim_OPT_WRITEFUNCTION, callback: curlBodyCallback)
        if configuration.allowsConnection != nil {
            CurlGlobal.installConnectFilter
            let code = CCurlShim_easy_setopt_open_socket(handle)
            guard code == CURLE_OK else {
                throw .transferFailed(
                    code: CurlError.Code(code), message: "CURLOPT_OPENSOCKETFUNCTION failed", url: url)
            }
        }
        if request.timeoutInterval > 0 {
            // The request's idle timeout is checked in curl's progress callback (CurlTransfer.progress), which
            // curl calls at least once a second; curl's own low-speed limit averages over several seconds.
            try set(CCurlShim_OPT_NOPROGRESS, false)
            try set(CCurlShim_OPT_XFERINFOFUNCTION, progressCallback: curlProgressCallback)
            // The low-speed limit makes curl wake the transfer every second (and is a backstop).
            try set(CCurlShim_OPT_LOW_SPEED_LIMIT, 1)
            try set(CCurlShim_OPT_LOW_SPEED_TIME, Int(min(request.timeoutInterval.rounded(.up), Double(Int32.max))))
        }
    }

    private func configureTimeouts(
        _ requestTimeout: TimeInterval, configuration: CurlDataLoader.Configuration
    )
        throws(CurlError)
    {
        var connectTimeout = configuration.connectTimeout
        if requestTimeout > 0 { connectTimeout = min(connectTimeout, requestTimeout) }
        if connectTimeout > 0 {
            try set(CCurlShim_OPT_CONNECTTIMEOUT_MS, Self.milliseconds(connectTimeout))
        }
        if let total = configuration.timeout, total > 0 {
            try set(CCurlShim_OPT_TIMEOUT_MS, Self.milliseconds(total))
        }
    }

    private func configureConnection(_ configuration: CurlDataLoader.Configuration) throws(CurlError) {
        try set(CCurlShim_OPT_HTTP_VERSION, configuration.httpVersion.curlValue)
        if configuration.httpVersion == .http2PriorKnowledge, CurlGlobal.breaksPriorKnowledgeReuse {
            // One transfer per h2c connection, never joining or keeping one; see CurlGlobal.
            try set(CCurlShim_OPT_FRESH_CONNECT, true)
            try set(CCurlShim_OPT_FORBID_REUSE, true)
        } else if configuration.isMultiplexingEnabled {
            try set(CCurlShim_OPT_PIPEWAIT, true)
        }
        if configuration.acceptsCompressedResponses {
            // "" = every encoding this libcurl decodes (gzip, deflate, and br/zstd when built in).
            try set(CCurlShim_OPT_ACCEPT_ENCODING, "")
        }
        if let userAgent = configuration.userAgent { try set(CCurlShim_OPT_USERAGENT, userAgent) }
        try set(CCurlShim_OPT_SSL_VERIFYPEER, configuration.verifiesTLSPeer)
        try set(CCurlShim_OPT_SSL_VERIFYHOST, configuration.verifiesTLSPeer ? 2 : 0)
        if let path = configuration.caBundlePath { try set(CCurlShim_OPT_CAINFO, path) }
        if let path = configuration.caDirectoryPath { try set(CCurlShim_OPT_CAPATH, path) }
        switch configuration.proxy {
        case .environment: break  // curl reads http_proxy, https_proxy, all_proxy and no_proxy itself
        case .none: try set(CCurlShim_OPT_PROXY, "")
        case let .url(proxy): try set(CCurlShim_OPT_PROXY, proxy)
        }
        if configuration.receiveBufferSize > 0 {
            try set(CCurlShim_OPT_BUFFERSIZE, configuration.receiveBufferSize)
        }
    }

    private func configureMethodAndBody(_ request: URLRequest) throws(CurlError) {
        let method = (request.httpMethod ?? "GET").uppercased()
        let body = request.httpBody ?? Data()
        switch method {
        case "GET" where body.isEmpty:
            try set(CCurlShim_OPT_HTTPGET, true)
        case "HEAD":
            try set(CCurlShim_OPT_NOBODY, true)
        default:
            if method != "POST" { try set(CCurlShim_OPT_CUSTOMREQUEST, method) }
            guard !body.isEmpty || method == "POST" else { return }
            try set(CCurlShim_OPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            try setCopiedBody(body)
        }
    }

    private static func headerLines(_ request: URLRequest, hasBody: Bool) -> [String] {
        var lines: [String] = []
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            // Control characters would let a value inject extra header lines.
            let clean = value.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }
            lines.append(clean.isEmpty ? "\(name);" : "\(name): \(clean)")
        }
        if hasBody { lines.append("Expect:") }  // no 100-continue round trip
        return lines
    }

    static func validatedURL(_ url: URL?) throws(CurlError) -> URL {
        guard let url else { throw .invalidRequest(reason: "the request has no URL", url: nil) }
        guard let scheme = url.scheme?.lowercased() else {
            throw .invalidRequest(reason: "the URL has no scheme", url: url)
        }
        guard scheme == "http" || scheme == "https" else {
            throw .invalidRequest(reason: "unsupported scheme '\(scheme)' (only http and https)", url: url)
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidRequest(reason: "the URL has no host", url: url)
        }
        return url
    }

    private static func milliseconds(_ interval: TimeInterval) -> Int {
        Int(min(max(1, (interval * 1000).rounded(.up)), Double(Int32.max)))
    }
}

extension CurlDataLoader.Configuration.HTTPVersion {
    var curlValue: Int {
        switch self {
        case .automatic: Int(CURL_HTTP_VERSION_2TLS)
        case .http1_1: Int(CURL_HTTP_VERSION_1_1)
        case .http2: Int(CURL_HTTP_VERSION_2_0)
        case .http2PriorKnowledge: Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
    }
}

/// curl's header callback: one header line per call, `context` is the transfer.
private let curlHeaderCallback: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveHeader(UnsafeBufferPointer(start: buffer, count: size * count))
}

/// The connect filter of `CCurlShim_open_socket`: `context` is the transfer (its CURLOPT_OPENSOCKETDATA).
let curlConnectFilter: CCurlShim_connect_filter = { context, address, port in
    guard let context, let address else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.allowsConnection(to: String(cString: address), port: Int(port)) ? 1 : 0
}

/// curl's progress callback, `context` is the transfer; non-zero aborts the transfer.
private let curlProgressCallback: curl_xferinfo_callback = { context, _, downloaded, _, uploaded in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.progress(downloaded: Int64(downloaded), uploaded: Int64(uploaded)) ? 0 : 1
}

/// curl's write callback: body bytes (decoded when compressed), `context` is the transfer.
private let curlBodyCallback: curl_write_callback = { buffer, size, count, context in
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receiveBody(UnsafeBufferPointer(start: buffer, count: size * count))
}
