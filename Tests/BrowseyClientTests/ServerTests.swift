import BrowseyClient
import BrowseyURLSession
import Foundation
import TestSupport
import Testing

@Suite("Servers: links, manual entry, saved list, status")
struct ServerTests {
    @Test("a link or QR payload gives the server, its token and its port")
    func links() throws {
        let plain = try ServerLink.parse("http://192.168.1.23:8080/")
        #expect(
            plain.host == "192.168.1.23" && plain.port == 8080 && plain.scheme == .http && plain.token == nil)
        let signed = try ServerLink.parse(
            "  https://laptop.local:8443/docs/a.md?view=1&token=abc%2Ddef_0123456789 \n")
        #expect(signed.host == "laptop.local" && signed.port == 8443 && signed.scheme == .https)
        #expect(signed.token == "abc-def_0123456789")
        #expect(ServerLink.link(for: signed) == "https://laptop.local:8443/?token=abc-def_0123456789")
        let v6 = try ServerLink.parse("http://[fe80::1%25eth0]:9000")
        #expect(v6.port == 9000 && v6.authority.hasPrefix("[fe80::1"))
        #expect(try ServerLink.parse("http://nas").port == 80)
        #expect(try ServerLink.parse("https://nas").port == 443)
    }

    @Test(
        "anything else is refused with a message saying what was expected",
        arguments: [
            "", "ftp://host:21/", "192.168.1.23:8080", "http://:8080/", "http://host:99999/",
            "http://host:80a/",
            "http://user@host:8080/", "http://ho st:8080/", "javascript:alert(1)", "http://[::1/",
        ])
    func badLinks(text: String) {
        #expect {
            _ = try ServerLink.parse(text)
        } throws: { error in
            let error = error as? BrowseyClientError
            return error?.code == .invalidInput
                && error?.message.contains("expected http://host:port/") == true
        }
    }

    @Test("manual entry checks the host and the port")
    func manualEntry() throws {
        #expect(try Server(name: "", host: " nas.local ", port: 8080).name == "nas.local")
        for (host, port) in [("", 80), ("bad host", 80), ("-x.local", 80), ("nas", 0), ("nas", 70_000)] {
            #expect(throws: BrowseyClientError.self) { try Server(host: host, port: port) }
        }
    }

    @Test("saved servers survive a reload, replace by address, and a damaged file is reported, not erased")
    func savedList() throws {
        let folder = try TemporaryFolder()
        let saved = SavedServers(file: folder.path("support/servers.json"))
        #expect(try saved.load().isEmpty)
        var nas = try Server(name: "NAS ☁︎", host: "nas.local", port: 8080, token: "t0123456789abcdef")
        nas.lastConnected = Date(timeIntervalSince1970: 1_700_000_000.123)
        try saved.save(nas)
        try saved.save(try Server(name: "Laptop", host: "192.168.1.5", port: 8080))
        nas.name = "Home NAS"
        try saved.save(nas)
        let reloaded = try SavedServers(file: folder.path("support/servers.json")).load()
        #expect(reloaded.map(\.name) == ["Home NAS", "Laptop"])
        #expect(reloaded.first?.token == "t0123456789abcdef")
        #expect(reloaded.first?.lastConnected == nas.lastConnected)
        #expect(try saved.remove(id: nas.id).map(\.name) == ["Laptop"])
        #expect(try folder.names(in: "support") == ["servers.json"], "no temporary file left behind")

        try folder.file("support/servers.json", "{ not json")
        #expect { try saved.load() } throws: { ($0 as? BrowseyClientError)?.code == .localFile }
        #expect(try folder.text("support/servers.json") == "{ not json")
    }

    @Test("connecting tests the server (and its token) before it is saved; status tells online from offline")
    func connectAndStatus() async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree, token: "status-token-0123456789") { _, client in
            let connected = try await client.connect()
            #expect(connected.lastConnected != nil)
            // A generous timeout: the parallel suite can keep a loaded machine's answer past the
            // 3 s an app waits; what is tested is online versus offline, not the speed.
            #expect(await client.status(timeout: .seconds(20)).isOnline)
            var unsigned = client
            unsigned.server.token = nil
            await #expect { _ = try await unsigned.connect() } throws: {
                ($0 as? BrowseyClientError)?.code == .unauthorized
            }
        }
        let gone = APIClient(server: try Server(host: "127.0.0.1", port: 9), transport: URLSessionTransport())
        let status = await gone.status(timeout: .seconds(2))
        #expect(!status.isOnline)
    }
}
