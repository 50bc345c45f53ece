/// Which network addresses the service may connect to for a source, so a URL can't make it reach the machine
/// itself or the network behind it (server-side request forgery). Checked on each address actually connected: every
/// DNS answer and every redirect hop.
///
/// By default it refuses loopback, link-local, private, carrier-grade NAT, multicast, unspecified, broadcast and
/// reserved addresses, also when an IPv4 address is written inside IPv6 (`::ffff:127.0.0.1`, NAT64, 6to4).
public struct SourceAddressPolicy: Sendable, Hashable {
    /// What kind of address, for the refusal's message.
    public enum AddressClass: String, Sendable, Hashable {
        case loopback, linkLocal = "link-local", privateNetwork = "private", carrierGradeNAT = "carrier-grade NAT"
        case multicast, unspecified, reserved, `public`
    }

    /// Whether private networks (`10/8`, `172.16/12`, `192.168/16`, `fc00::/7`, carrier-grade NAT `100.64/10`) are
    /// allowed: for internal origins. Loopback, link-local, multicast and the rest stay refused.
    public var allowsPrivateNetworks = false
    /// Ranges always allowed, whatever their class (e.g. `127.0.0.2/32` for a test's origin).
    public var allowedRanges: [AddressRange] = []

    /// The default policy: public addresses only.
    public init(allowsPrivateNetworks: Bool = false, allowedRanges: [AddressRange] = []) {
        self.allowsPrivateNetworks = allowsPrivateNetworks
        self.allowedRanges = allowedRanges
    }

    /// Checks an address the service is about to connect to.
    ///
    /// - Throws: ``ServeError/Kind/forbidden`` naming the address and its class.
    public func check(_ address: IPAddress) throws(ServeError) {
        if allowedRanges.contains(where: { $0.contains(address) }) { return }
        if let embedded = address.embeddedIPv4, allowedRanges.contains(where: { $0.contains(embedded) }) { return }
        let kind = Self.classify(address)
        if kind == .public || allowsPrivateNetworks && (kind == .privateNetwork || kind == .carrierGradeNAT) { return }
        throw ServeError(.forbidden, "the source's address \(address) is \(kind.rawValue): refused")
    }

    /// Whether ``check(_:)`` lets `address` through.
    public func allows(_ address: IPAddress) -> Bool {
        do {
            try check(address)
            return true
        } catch {
            return false
        }
    }

    /// Whether ``check(_:)`` lets the numeric address `text` through; `false` for text that is no address. The shape
    /// a loader's connection filter takes (`CurlDataLoader.Configuration.allowsConnection`).
    public func allows(address text: String) -> Bool {
        IPAddress(text).map(allows) ?? false
    }

    /// The class of `address`; an IPv4 address inside IPv6 is classified as the IPv4 address it reaches.
    public static func classify(_ address: IPAddress) -> AddressClass {
        if let embedded = address.embeddedIPv4 { return classify(embedded) }
        let ranges = address.isIPv4 ? ipv4Classes : ipv6Classes
        return ranges.first { $0.range.contains(address) }?.class ?? .public
    }

    private static func ranges(_ list: [(String, AddressClass)]) -> [(range: AddressRange, class: AddressClass)] {
        list.map { (AddressRange($0.0)!, $0.1) }
    }

    private static let ipv4Classes = ranges([
        ("0.0.0.0/8", .unspecified), ("127.0.0.0/8", .loopback), ("169.254.0.0/16", .linkLocal),
        ("10.0.0.0/8", .privateNetwork), ("172.16.0.0/12", .privateNetwork), ("192.168.0.0/16", .privateNetwork),
        ("100.64.0.0/10", .carrierGradeNAT), ("224.0.0.0/4", .multicast), ("240.0.0.0/4", .reserved),
        ("192.0.0.0/24", .reserved), ("198.18.0.0/15", .reserved), ("192.0.2.0/24", .reserved),
        ("198.51.100.0/24", .reserved), ("203.0.113.0/24", .reserved), ("192.88.99.0/24", .reserved),
    ])

    private static let ipv6Classes = ranges([
        ("::/128", .unspecified), ("::1/128", .loopback), ("fe80::/10", .linkLocal), ("fec0::/10", .privateNetwork),
        ("fc00::/7", .privateNetwork), ("ff00::/8", .multicast), ("100::/64", .reserved),
        // The rest of the IPv4-compatible block, local-use NAT64, SIIT, Teredo and documentation addresses.
        ("::/96", .reserved), ("64:ff9b:1::/48", .reserved), ("::ffff:0:0:0/96", .reserved), ("2001::/32", .reserved),
        ("2001:db8::/32", .reserved),
    ])
}
