/// The transfers that received body bytes before their response during the current `curl_multi_perform`; when the
/// call returns the loop delivers the bytes of those whose response is there, one chunk each, and asks for the
/// others' responses. Confined to the loop thread.
final class CurlFlushList {
    private var transfers: [CurlTransfer] = []

    /// Registers `transfer`, which just received its first pending bytes.
    func append(_ transfer: CurlTransfer) {
        transfers.append(transfer)
    }

    /// Delivers every pending chunk that has its response, in the order the transfers first received bytes, and
    /// returns the transfers whose bytes wait for their response (they are no longer registered).
    func flushAll() -> [CurlTransfer] {
        guard !transfers.isEmpty else { return [] }
        let current = transfers
        transfers.removeAll(keepingCapacity: true)
        var waiting: [CurlTransfer] = []
        for transfer in current where !transfer.flush(buildingResponse: false) { waiting.append(transfer) }
        return waiting
    }
}
