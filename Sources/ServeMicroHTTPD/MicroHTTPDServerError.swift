import Foundation

/// Why a ``MicroHTTPDServer`` could not start.
///
/// Each case names the cause; those that come from a system call keep its `errno` and message.
public enum MicroHTTPDServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The configured address is not an IPv4 or IPv6 literal.
    case invalidAddress(String)
    /// A ``MicroHTTPDServer/Configuration`` value is out of range; the string names the field and its limit.
    case invalidConfiguration(String)
    /// Another socket already listens on the address and port (`EADDRINUSE`).
    case addressInUse(address: String, port: UInt16)
    /// The address belongs to no interface of this machine (`EADDRNOTAVAIL`).
    case addressNotAvailable(address: String, port: UInt16)
    /// The process may not listen on the port, e.g. one below 1024 without the privilege (`EACCES`).
    case permissionDenied(address: String, port: UInt16)
    /// A socket call failed for another reason: the call's name, `errno` and its message.
    case socketFailed(call: String, errno: Int32, message: String)
    /// libmicrohttpd could not start its daemon (its threads, epoll sets or event descriptors).
    case daemonFailed

    /// A sentence naming the cause, for logs and the command line.
    public var description: String {
        switch self {
        case .invalidAddress(let address):
            "'\(address)' is not an IPv4 or IPv6 address literal"
        case .invalidConfiguration(let reason):
            "invalid server configuration: \(reason)"
        case .addressInUse(let address, let port):
            "\(Self.endpoint(address, port)) is already in use"
        case .addressNotAvailable(let address, let port):
            "cannot listen on \(Self.endpoint(address, port)): the address belongs to no interface of this machine"
        case .permissionDenied(let address, let port):
            "not permitted to listen on \(Self.endpoint(address, port))"
        case .socketFailed(let call, let errno, let message):
            "\(call) failed: \(message) (errno \(errno))"
        case .daemonFailed:
            "libmicrohttpd could not start its daemon"
        }
    }

    private static func endpoint(_ address: String, _ port: UInt16) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }
}
