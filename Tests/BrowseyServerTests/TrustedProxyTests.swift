import Testing

@testable import BrowseyServer

@Suite("Behind a trusted proxy, the client is who X-Forwarded-For says; from anyone else, never")
struct TrustedProxyTests {
    let loopback = ["127.0.0.1", "10.0.0.0/8"].compactMap(AddressRange.init)

    @Test("CIDR blocks and single addresses of both families are read, and nothing else is")
    func ranges() {
        #expect(AddressRange("10.0.0.0/8")?.contains("10.200.3.4") == true)
        #expect(AddressRange("10.0.0.0/8")?.contains("11.0.0.1") == false)
        #expect(AddressRange("192.168.1.0/25")?.contains("192.168.1.127") == true)
        #expect(AddressRange("192.168.1.0/25")?.contains("192.168.1.128") == false)
        #expect(AddressRange("fd00::/8")?.contains("fd12:3456::1") == true)
        #expect(AddressRange("::1")?.contains("::1") == true)
        #expect(AddressRange("127.0.0.1")?.contains("::ffff:127.0.0.1") == true, "IPv4 written as IPv6")
        #expect(AddressRange("0.0.0.0/0")?.contains("203.0.113.9") == true)
        #expect(AddressRange("10.0.0.0/8")?.description == "10.0.0.0/8")
        for bad in [
            "", "localhost", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/+8", "::1/129", "1.2.3",
        ] {
            #expect(AddressRange(bad) == nil, "\(bad) is refused")
        }
    }

    @Test("the client is the rightmost address no trusted proxy holds, read past each trusted hop")
    func rightmostUntrusted() {
        func client(_ peer: String, _ header: [String]) -> String {
            ForwardedClient.address(peer: peer, forwardedFor: header, trusted: loopback)
        }
        #expect(client("127.0.0.1", ["203.0.113.9"]) == "203.0.113.9")
        // A client's own forged entries sit to the left of what the proxy appended.
        #expect(client("127.0.0.1", ["1.1.1.1, 203.0.113.9"]) == "203.0.113.9")
        #expect(client("127.0.0.1", ["203.0.113.9, 10.1.1.1"]) == "203.0.113.9", "past a trusted inner proxy")
        #expect(client("127.0.0.1", ["198.51.100.1", "203.0.113.9"]) == "203.0.113.9", "two header lines")
    }

    @Test("a header from an untrusted peer, or a garbled one, changes nothing")
    func untrustedOrGarbled() {
        func client(_ peer: String, _ header: [String]) -> String {
            ForwardedClient.address(peer: peer, forwardedFor: header, trusted: loopback)
        }
        #expect(client("203.0.113.50", ["127.0.0.1"]) == "203.0.113.50", "anyone may send the header")
        #expect(client("127.0.0.1", []) == "127.0.0.1")
        #expect(client("127.0.0.1", ["not-an-address"]) == "127.0.0.1")
        #expect(client("127.0.0.1", ["<script>, 203.0.113.9"]) == "203.0.113.9", "garbage left of the client")
        #expect(client("127.0.0.1", ["203.0.113.9, \u{0}"]) == "127.0.0.1")
        #expect(client("127.0.0.1", ["10.1.1.1, 10.2.2.2"]) == "10.1.1.1", "only proxies: the farthest one")
        #expect(
            ForwardedClient.address(peer: "127.0.0.1", forwardedFor: ["203.0.113.9"], trusted: [])
                == "127.0.0.1")
    }
}
