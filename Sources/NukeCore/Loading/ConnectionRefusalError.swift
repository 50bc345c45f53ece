/// An error of a data loader that refused to connect to an address because its connection policy forbids it (for
/// example `CurlDataLoader.Configuration.allowsConnection`), as opposed to a network failure. A service that loads
/// URLs on behalf of others reads it to answer "forbidden" rather than "the origin failed". Adopted by the loader
/// plugins' errors; a custom loader that filters addresses should adopt it too.
public protocol ConnectionRefusalError: Error {
    /// The numeric address (`127.0.0.1`, `::1`) the loader refused, or `nil` when the error isn't a refusal.
    var refusedAddress: String? { get }
}
