public import Foundation

/// Stores encoded image data by key, usually on disk. Implemented by `DataCache` (CacheDisk) and by apps.
///
/// ## Contract
/// - Every method is safe to call from any thread.
/// - `storeData` may return before the data is persisted, but a following `cachedData(for:)` or
///   `containsData(for:)` sees it.
/// - `cachedData(for:)` never returns data stored under another key, and never returns partially written or
///   corrupted data: a damaged entry is a miss.
public protocol DataCaching: Sendable {
    /// The data stored for `key`, or `nil`.
    func cachedData(for key: String) -> Data?
    /// `true` if data is stored for `key`; cheaper than reading it.
    func containsData(for key: String) -> Bool
    /// Stores `data` for `key`, replacing any earlier value.
    func storeData(_ data: Data, for key: String)
    /// Removes the data stored for `key`, if any.
    func removeData(for key: String)
    /// Removes all data.
    func removeAll()
}
