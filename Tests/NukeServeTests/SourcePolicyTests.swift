import Foundation
import NukeServe
import Testing

@Suite struct SourceAddressPolicyTests {
    @Test(arguments: [
        ("127.0.0.1", "loopback"), ("127.255.0.9", "loopback"), ("::1", "loopback"),
        ("0.0.0.0", "unspecified"), ("::", "unspecified"),
        ("169.254.169.254", "link-local"), ("fe80::1%eth0", "link-local"), ("[fe80::abcd]", "link-local"),
        ("10.1.2.3", "private"), ("172.16.0.1", "private"), ("172.31.255.255", "private"), ("192.168.1.1", "private"),
        ("fd12:3456::1", "private"), ("100.64.0.1", "carrier-grade NAT"), ("100.127.255.254", "carrier-grade NAT"),
        ("224.0.0.251", "multicast"), ("ff02::fb", "multicast"), ("255.255.255.255", "reserved"),
        // IPv4 written inside IPv6: mapped, compatible, NAT64, 6to4.
        ("::ffff:127.0.0.1", "loopback"), ("::ffff:7f00:1", "loopback"), ("::127.0.0.1", "loopback"),
        ("64:ff9b::10.0.0.1", "private"), ("2002:a9fe:a9fe::", "link-local"),
        ("::ffff:100.64.1.1", "carrier-grade NAT"),
        ("93.184.215.14", "public"), ("172.32.0.1", "public"), ("2606:4700::6810:84e5", "public"),
        ("::ffff:8.8.8.8", "public"),
    ])
    func addressesAreClassified(_ text: String, _ expected: String) throws {
        let address = try #require(IPAddress(text))
        let kind = SourceAddressPolicy.classify(address)

        #expect(kind.rawValue == expected)
        #expect(SourceAddressPolicy().allows(address) == (expected == "public"))
    }

    @Test func privateNetworksCanBeAllowedButNotLoopback() throws {
        let policy = SourceAddressPolicy(allowsPrivateNetworks: true)

        for text in ["10.0.0.1", "192.168.0.10", "fd00::1", "100.64.0.1", "::ffff:10.0.0.1"] {
            #expect(policy.allows(try #require(IPAddress(text))), "\(text)")
        }
        for text in ["127.0.0.1", "::1", "169.254.1.1", "0.0.0.0", "224.0.0.1", "::ffff:127.0.0.1"] {
            #expect(!policy.allows(try #require(IPAddress(text))), "\(text)")
        }
    }

    @Test func allowedRangesOpenExactlyThoseAddresses() throws {
        let policy = SourceAddressPolicy(allowedRanges: [try #require(AddressRange("127.0.0.2/32"))])

        #expect(policy.allows(try #require(IPAddress("127.0.0.2"))))
        #expect(policy.allows(try #require(IPAddress("::ffff:127.0.0.2"))))
        #expect(!policy.allows(try #require(IPAddress("127.0.0.1"))))
        #expect {
            try policy.check(try #require(IPAddress("127.0.0.1")))
        } throws: { error in
            (error as? ServeError)?.status == 403
                && (error as? ServeError)?.message == "the source's address 127.0.0.1 is loopback: refused"
        }
    }

    @Test func rangesParseAndContain() throws {
        let range = try #require(AddressRange("10.20.30.40/12"))
        let v6 = try #require(AddressRange("2001:db8::/32"))

        #expect(range.description == "10.16.0.0/12")
        #expect(range.contains(try #require(IPAddress("10.31.255.255"))))
        #expect(!range.contains(try #require(IPAddress("10.32.0.0"))))
        #expect(!range.contains(try #require(IPAddress("::ffff:10.16.0.1"))))
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(try #require(AddressRange("0.0.0.0/0")).contains(try #require(IPAddress("8.8.8.8"))))
        for bad in ["10.0.0.0/33", "::/129", "10.0.0/8", "10.0.0.0/", "10.0.0.0/x", "host/8", "10.0.0.0/+8"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
        #expect(IPAddress("1.2.3") == nil && IPAddress("01.2.3.4.5") == nil && IPAddress("example.com") == nil)
    }
}

@Suite struct SourcePolicyTests {
    @Test func remoteSourcesFollowSchemesPrefixesAndLiteralAddresses() throws {
        let open = SourcePolicy()
        let listed = SourcePolicy(allowedPrefixes: ["https://images.example.com/"])
        let bare = SourcePolicy(allowedPrefixes: ["https://images.example.com"])
        let photos = SourcePolicy(allowedPrefixes: ["https://IMAGES.example.com:443/photos/"])

        #expect(try open.locate("https://example.com/a.jpg") == .remote(URL(string: "https://example.com/a.jpg")!))
        #expect(
            try listed.locate("https://images.example.com/a.jpg")
                == .remote(URL(string: "https://images.example.com/a.jpg")!))
        #expect(Self.status(bare, "https://Images.Example.com/a.jpg") == "ok")
        #expect(Self.status(photos, "https://images.example.com/photos/cat.jpg") == "ok")
        for (policy, source, status) in [
            (listed, "https://images.example.com.evil.net/a.jpg", 403), (listed, "https://other.example.com/a", 403),
            (bare, "https://images.example.com.evil.net/a.jpg", 403),
            (bare, "https://images.example.com@evil.net/a", 403),
            (bare, "http://images.example.com/a.jpg", 403), (bare, "https://images.example.com:8443/a.jpg", 403),
            (bare, "https://user@images.example.com/a.jpg", 403), (photos, "https://images.example.com/art/a.jpg", 403),
            (open, "ftp://example.com/a.jpg", 400), (open, "file:///etc/passwd", 400), (open, "https:///a", 400),
            (open, "http://127.0.0.1/a.png", 403), (open, "http://[::ffff:127.0.0.1]:8080/a.png", 403),
            (open, "http://169.254.169.254/latest/meta-data", 403), (open, "local:///a.png", 403),
        ] {
            #expect("\(status)" == Self.status(policy, source), "\(source)")
        }
    }

    @Test func localSourcesStayUnderTheRoot() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("serve-local-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let root = base.appendingPathComponent("root")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("in"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("in/a.png"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("escape.png"), withDestinationURL: base.appendingPathComponent("secret.png")
        )
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("inside.png"), withDestinationURL: root.appendingPathComponent("in/a.png"))
        let policy = SourcePolicy(localRoot: root)

        let found = try policy.locate("local:///in/a.png")
        let linked = try policy.locate("local:///inside.png")

        let resolved = URL(fileURLWithPath: root.appendingPathComponent("in/a.png").resolvingSymlinksInPath().path)
        #expect(found == .local(resolved))
        #expect(linked == .local(resolved))
        #expect(Self.status(policy, "local:///../secret.png") == "403")
        #expect(Self.status(policy, "local:///in/../../secret.png") == "403")
        #expect(Self.status(policy, "local:///escape.png") == "403")
        #expect(Self.status(policy, "local:///missing.png") == "404")
        #expect(Self.status(policy, "local:///in") == "404")
        #expect(Self.status(policy, "local://in/a.png") == "400")
        #expect(Self.status(policy, "local:///in/a.png\u{0}.txt") == "400")
    }

    /// The status of the error `locate` throws, or `ok`.
    static func status(_ policy: SourcePolicy, _ source: String) -> String {
        do {
            _ = try policy.locate(source)
            return "ok"
        } catch {
            return "\(error.status)"
        }
    }
}
