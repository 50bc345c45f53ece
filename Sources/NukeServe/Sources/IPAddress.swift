#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An IPv4 or IPv6 address, as bytes in network order.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Parses an address literal: dotted IPv4 (`192.0.2.1`, four decimal parts only) or IPv6 in any RFC 4291 form,
    /// optionally in brackets and with a zone (`[fe80::1%eth0]`, the zone ignored); `nil` for anything else.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        if let percent = text.firstIndex(of: "%") { text = text[..<percent] }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// An address of 4 or 16 bytes; `nil` for another count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Whether it is an IPv4 address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv6 address carries, when it is one of the forms that reach an IPv4 host: IPv4-mapped
    /// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated), NAT64 (`64:ff9b::a.b.c.d`) and 6to4
    /// (`2002:aabb:ccdd::`); `nil` otherwise and for IPv4.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let head = bytes[0..<12]
        if head.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF])
            || head.allSatisfy({ $0 == 0 }) && !bytes[12..<15].allSatisfy({ $0 == 0 })
            || head.elementsEqual([0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0])
        {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20, bytes[1] == 0x02 {
            return IPAddress(bytes: Array(bytes[2..<6]))
        }
        return nil
    }

    /// The address in its usual text form (`192.0.2.1`, `2001:db8::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = isIPv4 ? AF_INET : AF_INET6
        let text = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return text.map { _ in String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
            ?? "?"
    }
}

/// A range of addresses in CIDR notation (`10.0.0.0/8`, `fc00::/7`, or one address, `127.0.0.2`).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The first address of the range (host bits cleared).
    public let network: IPAddress
    /// How many leading bits are fixed.
    public let prefixLength: Int

    /// Parses `address/length`, or an address alone (a range of one); `nil` for anything else, a length past the
    /// family's bits included.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        let length: Int
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...bits).contains(value), parts[1].allSatisfy(\.isNumber) else {
                return nil
            }
            length = value
        } else {
            length = bits
        }
        self.init(address, prefixLength: length)
    }

    /// The range of `prefixLength` leading bits of `address`.
    public init(_ address: IPAddress, prefixLength: Int) {
        let length = max(0, min(prefixLength, address.bytes.count * 8))
        var bytes = address.bytes
        for index in bytes.indices {
            let fixed = max(0, min(8, length - index * 8))
            bytes[index] &= fixed == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - fixed))
        }
        network = IPAddress(bytes: bytes)!
        self.prefixLength = length
    }

    /// Whether `address` is in the range (of the same family; an IPv4 address written inside IPv6 is not unwrapped
    /// here).
    public func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        return AddressRange(address, prefixLength: prefixLength).network == network
    }

    public var description: String { "\(network)/\(prefixLength)" }
}
