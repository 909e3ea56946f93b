import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer

@Suite("Which pages and names may reach the server")
struct NetworkPolicyTests {
    @Test("a request addressed to another name (DNS rebinding) is refused; the machine's own names pass")
    func hostCheck() async throws {
        let fixture = try ServerFixture.make()
        var configuration = fixture.configuration()
        configuration.allowedHosts = ["files.example.com"]
        configuration.port = 0
        let app = try FileServer.application(configuration)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            for host in ["evil.example", "evil.example:\(port)", "192.0.2.66", "localhost.evil.example"] {
                let status = RawSocket.request(port: port, method: "GET", target: "/api/list", host: host)
                #expect(status == 403, "\(host)")
            }
            for host in [
                "localhost:\(port)", "127.0.0.1", "[::1]:\(port)", "files.example.com:443", "LOCALHOST.",
            ] {
                let status = RawSocket.request(port: port, method: "GET", target: "/api/list", host: host)
                #expect(status == 200, "\(host)")
            }
        }
        let names = HostCheck<BasicRequestContext>.machineNames()
        #expect(names.contains("127.0.0.1") && names.contains("localhost"))
        #expect(HostCheck<BasicRequestContext>.hostPart(of: "[fe80::1]:80") == "fe80::1")
        #expect(HostCheck<BasicRequestContext>.hostPart(of: "Box.Local.:8080") == "box.local")
    }

    @Test(
        "CORS only for the origins given: preflights answered, headers on answers, writes allowed from them")
    func cors() async throws {
        let fixture = try WritableFixture.make()
        var configuration = fixture.configuration()
        configuration.corsOrigins = ["https://app.example"]
        try await fixture.withClient(configuration) { client in
            let preflight = try await client.ask(
                "/api/mkdir", method: .options,
                headers: [.origin: "https://app.example", .accessControlRequestMethod: "POST"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "https://app.example")
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("PUT") == true)
            let listing = try await client.ask("/api/list", headers: [.origin: "https://app.example"])
            #expect(listing.headers[.accessControlAllowOrigin] == "https://app.example")
            let other = try await client.ask("/api/list", headers: [.origin: "https://evil.example"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
            let write = try await client.post(
                "/api/mkdir", PathRequest(path: "/from app"), headers: [.origin: "https://app.example"])
            #expect(write.status == .ok && write.headers[.accessControlAllowOrigin] == "https://app.example")
            let refused = try await client.post(
                "/api/mkdir", PathRequest(path: "/from evil"), headers: [.origin: "https://evil.example"])
            #expect(refused.status == .forbidden)
        }
        #expect(fixture.exists("from app") && !fixture.exists("from evil"))
        try await fixture.withClient { client in
            let plain = try await client.ask("/api/list", headers: [.origin: "https://app.example"])
            #expect(plain.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
