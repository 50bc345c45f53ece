import Foundation
internal import CCurlShim
internal import CLibCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// curl's header and body callbacks, and the delivery of body bytes (loop thread only).
extension CurlTransfer {
    /// A header line arrived (status lines included, for every response in a redirect chain).
    func receiveHeader(_ bytes: UnsafeBufferPointer<CChar>) -> Int {
        guard isRunning else { return 0 }
        idleTimeout?.recordActivity()
        headers.append(line: bytes)
        let line = UnsafeRawBufferPointer(bytes)
        if line.starts(with: "HTTP/".utf8) {
            // A new response (after a redirect or a 1xx): curl decodes what it knows again.
            if isDecodingSkipped, (try? easy?.set(CCurlShim_OPT_HTTP_CONTENT_DECODING, true)) != nil {
                isDecodingSkipped = false
            }
        } else if !isDecodingSkipped, CurlContentCoding.namesUnknownCoding(line) {
            // A coding curl can't decode: the body is delivered as it came (see CurlContentCoding).
            isDecodingSkipped = (try? easy?.set(CCurlShim_OPT_HTTP_CONTENT_DECODING, false)) != nil
        }
        return bytes.count
    }

    /// Body bytes arrived. They wait in ``pendingBody`` for the end of curl's pass (or, before the response is built,
    /// for the response, up to ``maximumPendingBody``); once the response is there, every ``progressStep`` bytes go out
    /// at once. Returns the number of bytes consumed; anything else makes curl abort the transfer.
    func receiveBody(_ bytes: UnsafeBufferPointer<CChar>) -> Int {
        guard isRunning else { return 0 }
        if statusCode == 0 {
            statusCode = easy?.responseCode ?? 0
            failure = validate(status: statusCode)
        }
        if let failure {
            // A small error body is read and dropped, keeping the connection reusable; a large one (or a
            // timeout) ends the transfer.
            guard case .unacceptableStatusCode = failure else { return 0 }
            discardedCount += bytes.count
            return discardedCount <= Self.maximumDiscardedBody ? bytes.count : 0
        }
        guard bytes.count > 0 else { return 0 }
        if response == nil, pendingBody.count + bytes.count > Self.maximumPendingBody {
            flush(buildingResponse: true)  // Waited long enough for the builder: the response is made here.
        }
        let isFirstPending = pendingBody.isEmpty
        if isFirstPending {
            // Room for the rest of the announced body (up to the cap), so appends don't reallocate.
            let remaining = Int(easy?.contentLength ?? -1) - deliveredCount
            pendingBody.reserveCapacity(min(max(bytes.count, remaining), Self.maximumPendingBody))
        }
        pendingBody.append(UnsafeRawBufferPointer(bytes).assumingMemoryBound(to: UInt8.self))
        if flushList == nil {
            flush(buildingResponse: true)
        } else if response != nil, pendingBody.count >= Self.progressStep {
            // The response is there and a step's worth has arrived: it goes out now, so a large download's progress
            // moves as its bytes arrive, however many reads one `curl_multi_perform` makes. Less waits for the end
            // of the pass, so a small body is still one chunk.
            flush(buildingResponse: false)
        } else if isFirstPending {
            flushList?.append(self)
        }
        return isRunning ? bytes.count : 0
    }

    /// Delivers a response without body bytes as one empty chunk: a `304 Not Modified`, which has none, or a status
    /// the transfer fails (its body dropped), before the error, so that an HTTP cache can store the status by its
    /// headers.
    func deliverEmptyResponse(status: Int) {
        statusCode = status
        if response == nil { response = responseParts?.makeResponse() }
        guard let response, isRunning else { return }
        didReceiveData(Data(), response)
    }

    /// Whether received bytes wait for the response (being built, or to be requested).
    var isWaitingForResponse: Bool { response == nil && !pendingBody.isEmpty }

    /// What the builder needs for this transfer's response, or `nil` without a URL (which validation rules out).
    var responseParts: CurlResponseParts? {
        guard let url = currentURL else { return nil }
        return CurlResponseParts(id: id, url: url, statusCode: statusCode, headers: headers)
    }

    /// Delivers the body bytes received since the last flush as one chunk. Without a response it keeps them and
    /// returns `false`, unless `buildingResponse`, which builds the response here first.
    @discardableResult
    func flush(buildingResponse: Bool) -> Bool {
        guard !pendingBody.isEmpty else { return true }
        guard isRunning else {
            pendingBody = Data()  // cancelled: the bytes go nowhere
            return true
        }
        if response == nil {
            guard buildingResponse else { return false }
            response = responseParts?.makeResponse()
        }
        guard let response else {
            pendingBody = Data()  // Unreachable (the URL was validated): there is no response to deliver them with.
            return true
        }
        let chunk = pendingBody
        pendingBody = Data()
        deliveredCount += chunk.count
        // Checked right before the call: a cancel() that returned before this point stops it.
        guard isRunning else { return true }
        didReceiveData(chunk, response)
        return true
    }
}
