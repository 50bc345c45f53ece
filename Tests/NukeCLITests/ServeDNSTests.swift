import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import NukeTestKit
import Testing

/// `nuke serve`'s address policy against names whose DNS answers change or hold several addresses: a real DNS server
/// (Python's standard library, on 127.0.0.153:53) that the server process resolves through, in a mount namespace of
/// its own where `/etc/resolv.conf` names it. The policy is checked on the address curl connects to, so a name that
/// was allowed once and then resolves to loopback (DNS rebinding) is refused, and of an answer's addresses only the
/// allowed ones are connected to.
@Suite(.serialized) struct ServeDNSTests {
    /// Answers `A` queries from a JSON table: name → the answers of its first, second, … query (the last repeats), an
    /// answer being a list of IPv4 addresses, with TTL 0. Other types of a known name get no records; unknown names
    /// NXDOMAIN. Prints `ready`, then `A name addresses` for every answer it sends.
    static let dnsServer = """
        import json, socket, struct, sys
        table = {name.lower(): answers for name, answers in json.loads(sys.argv[2]).items()}
        asked = {}
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((sys.argv[1], 53))
        print("ready", flush=True)
        while True:
            query, peer = sock.recvfrom(512)
            ident, _, count = struct.unpack(">HHH", query[:6])
            labels, index = [], 12
            while query[index]:
                labels.append(query[index + 1:index + 1 + query[index]].decode().lower())
                index += 1 + query[index]
            qtype = struct.unpack(">H", query[index + 1:index + 3])[0]
            question = query[12:index + 5]
            name = ".".join(labels)
            records, rcode = [], 0
            if name not in table:
                rcode = 3
            elif qtype == 1:
                answers = table[name]
                addresses = answers[min(asked.get(name, 0), len(answers) - 1)]
                asked[name] = asked.get(name, 0) + 1
                records = [b"\\xc0\\x0c" + struct.pack(">HHIH", 1, 1, 0, 4) + socket.inet_aton(a) for a in addresses]
                print("A", name, ",".join(addresses), flush=True)
            header = struct.pack(">HHHHHH", ident, 0x8180 | rcode, 1, len(records), 0, 0)
            sock.sendto(header + question + b"".join(records), peer)
        """

    /// The DNS server, a `resolv.conf` naming it, and `nuke serve` started in a mount namespace that sees that file as
    /// `/etc/resolv.conf`, allowed to connect to 127.0.0.2 only.
    final class Fixture {
        let directory: TemporaryDirectory
        let dns: Process
        let dnsOutput = Pipe()
        let serve: ServeProcess

        init(table: [String: [[String]]]) async throws {
            directory = try TemporaryDirectory()
            try directory.write(Data(ServeDNSTests.dnsServer.utf8), to: "dns.py")
            try directory.write(Data("nameserver 127.0.0.153\noptions timeout:1 attempts:2\n".utf8), to: "resolv.conf")
            dns = Process()
            dns.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let json = String(decoding: try JSONSerialization.data(withJSONObject: table), as: UTF8.self)
            dns.arguments = ["python3", directory.url.appendingPathComponent("dns.py").path, "127.0.0.153", json]
            dns.standardOutput = dnsOutput
            dns.standardError = FileHandle.nullDevice
            try dns.run()
            let ready = dnsOutput.fileHandleForReading.availableData
            guard String(decoding: ready, as: UTF8.self).hasPrefix("ready") else {
                kill(dns.processIdentifier, SIGKILL)
                throw NukeProcessError(description: "the DNS server did not start")
            }
            let resolv = directory.url.appendingPathComponent("resolv.conf").path
            do {
                serve = try await ServeProcess(
                    ["--allow-source-addresses", "127.0.0.2"],
                    launcher: [
                        "/usr/bin/unshare", "--mount", "--", "/bin/sh", "-c",
                        "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", resolv,
                    ])
            } catch {
                // Not initialised, so `deinit` won't run: the DNS server would keep its port from the next test.
                kill(dns.processIdentifier, SIGKILL)
                dns.waitUntilExit()
                directory.remove()
                throw error
            }
        }

        /// The answers the DNS server sent, as `name addresses` lines (after stopping it).
        func stopDNS() -> [String] {
            // SIGKILL: a child of the test runner starts with SIGTERM blocked.
            kill(dns.processIdentifier, SIGKILL)
            dns.waitUntilExit()
            let text = String(decoding: dnsOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return text.split(separator: "\n").filter { $0.hasPrefix("A ") }.map { String($0.dropFirst(2)) }
        }

        deinit {
            if dns.isRunning { kill(dns.processIdentifier, SIGKILL) }
            directory.remove()
        }
    }

    static let png = ServeCommandTests.photo

    /// Whether this machine can run the fixture: `unshare` and `mount` as root (CI runs as root).
    static var canIsolateResolver: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    }

    @Test(.enabled(if: canIsolateResolver))
    func aNameThatRebindsToLoopbackIsRefusedOnTheAddressItConnectsTo() async throws {
        // An origin on 127.0.0.2 (allowed), and a service on 127.0.0.1 that a rebound name would reach.
        let origin = try LoopbackHTTPServer(routes: ["/a.png": .data(Self.png)], host: .secondary)
        let intranet = try LoopbackHTTPServer(routes: ["/a.png": .data(Self.png)], host: .primary)
        let fixture = try await Fixture(table: ["rebind.test": [["127.0.0.2"], ["127.0.0.1"]]])

        // The first answer is the allowed origin; the second (another port, so curl asks again) is loopback.
        let allowed = try await CurlClient.get(
            fixture.serve.url("/unsafe/w:40/plain/http://rebind.test:\(origin.port)/a.png"))
        let rebound = try await CurlClient.get(
            fixture.serve.url("/unsafe/w:40/plain/http://rebind.test:\(intranet.port)/a.png"))
        #expect(try await fixture.serve.stop() == 0)
        let answers = fixture.stopDNS()

        #expect(answers == ["rebind.test 127.0.0.2", "rebind.test 127.0.0.1"])
        #expect(allowed.status == 200, "\(String(decoding: allowed.body, as: UTF8.self))")
        #expect(rebound.status == 403)
        #expect(String(decoding: rebound.body, as: UTF8.self) == "the source's address is not allowed\n")
        #expect(origin.requests(for: "/a.png").count == 1)
        #expect(intranet.requests(for: "/a.png").isEmpty)
    }

    @Test(.enabled(if: canIsolateResolver))
    func ofAnAnswersAddressesOnlyTheAllowedOnesAreConnectedTo() async throws {
        let origin = try LoopbackHTTPServer(routes: ["/a.png": .data(Self.png)], host: .secondary)
        // The same port on 127.0.0.1: what the name's first address would reach.
        let intranet = try LoopbackHTTPServer(routes: ["/a.png": .data(Self.png)], host: .primary, port: origin.port)
        let fixture = try await Fixture(table: [
            "both.test": [["127.0.0.1", "127.0.0.2"]], "loop.test": [["127.0.0.1"]],
        ])

        let both = try await CurlClient.get(
            fixture.serve.url("/unsafe/w:40/plain/http://both.test:\(origin.port)/a.png"))
        let loop = try await CurlClient.get(
            fixture.serve.url("/unsafe/w:40/plain/http://loop.test:\(origin.port)/a.png"))
        #expect(try await fixture.serve.stop() == 0)
        _ = fixture.stopDNS()

        #expect(both.status == 200, "\(String(decoding: both.body, as: UTF8.self))")
        #expect(loop.status == 403)
        #expect(origin.requests(for: "/a.png").count == 1)
        #expect(intranet.requests(for: "/a.png").isEmpty)
    }
}
