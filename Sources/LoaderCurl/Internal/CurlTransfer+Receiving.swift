import Foundation
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
        return bytes.count
    }

    /// Body bytes arrived. Returns the number of bytes consumed; anything else makes curl abort the transfer.
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
        if pendingBody.count + bytes.count > Self.maximumPendingBody { flush() }
        let isFirstPending = pendingBody.isEmpty
        if isFirstPending {
            // Room for the rest of the announced body (up to the cap), so appends don't reallocate.
            let remaining = Int(easy?.contentLength ?? -1) - deliveredCount
            pendingBody.reserveCapacity(min(max(bytes.count, remaining), Self.maximumPendingBody))
        }
        pendingBody.append(UnsafeRawBufferPointer(bytes).assumingMemoryBound(to: UInt8.self))
        if flushList == nil {
            flush()
        } else if isFirstPending {
            flushList?.append(self)
        }
        return isRunning ? bytes.count : 0
    }

    /// Builds the response from the collected headers (`nil` without a URL, which validation rules out).
    func makeResponse() -> HTTPURLResponse? {
        guard let url = currentURL else { return nil }
        return HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: headers.httpVersion, headerFields: headers.fields)
    }

    /// Delivers the body bytes received since the last flush as one chunk, building the response first if this
    /// is the first.
    func flush() {
        guard !pendingBody.isEmpty else { return }
        guard isRunning else {
            pendingBody = Data()  // cancelled: the bytes go nowhere
            return
        }
        if response == nil { response = makeResponse() }
        guard let response else {
            pendingBody = Data()  // Unreachable (the URL was validated): there is no response to deliver them with.
            return
        }
        let chunk = pendingBody
        pendingBody = Data()
        deliveredCount += chunk.count
        // Checked right before the call: a cancel() that returned before this point stops it.
        guard isRunning else { return }
        didReceiveData(chunk, response)
    }
}
