import BrowseyClient
import Foundation
import TestSupport
import Testing

@Suite("Pairing: a pair code, a plain URL, and what is refused")
struct PairingTests {
    @Test("a version 1 pair code gives the server, its name and its bearer token")
    func versionOne() throws {
        let server = try ServerLink.parse(
            #"{"v":1,"kind":"browsey-pair","url":"http://192.168.1.23:8080","name":"Laptop","token":"bearer-0123456789"}"#
        )
        #expect(server.host == "192.168.1.23" && server.port == 8080 && server.scheme == .http)
        #expect(server.name == "Laptop" && server.token == "bearer-0123456789")
        #expect(server.accessToken == nil && server.cloudflareAccess == nil)
    }

    @Test("a version 2 pair code gives the server with its access token and Cloudflare credentials")
    func versionTwo() throws {
        let text = """
              {"v":2,"kind":"browsey-pair","url":"https://files.example.org","name":"NAS",
               "access":"gate-secret-0123456789","cf":{"id":"client.access","secret":"cf-secret"},
               "later":"fields this client does not know are ignored"}
            """
        let server = try ServerLink.parse(text)
        #expect(server.host == "files.example.org" && server.port == 443 && server.scheme == .https)
        #expect(server.name == "NAS" && server.token == nil)
        #expect(server.accessToken == "gate-secret-0123456789")
        #expect(server.cloudflareAccess == Server.CloudflareAccess(id: "client.access", secret: "cf-secret"))
    }

    @Test("a plain URL, and one carrying ?token=, still pair; a code without a name is named by its host")
    func plainURL() throws {
        let plain = try ServerLink.parse("http://192.168.1.23:8080/")
        #expect(plain.host == "192.168.1.23" && plain.token == nil && plain.accessToken == nil)
        let signed = try ServerLink.parse("http://192.168.1.23:8080/?token=abc123abc123")
        #expect(signed.token == "abc123abc123" && signed.accessToken == nil)
        let unnamed = try ServerLink.parse(#"{"v":1,"kind":"browsey-pair","url":"http://nas.local:9000"}"#)
        #expect(unnamed.name == "nas.local")
        let named = try ServerLink.parse(
            #"{"v":1,"kind":"browsey-pair","url":"http://nas.local:9000"}"#, name: "Given")
        #expect(named.name == "Given")
    }

    @Test("a pair code written by the client reads back as the same server")
    func roundTrip() throws {
        let payload = PairPayload(
            url: "https://nas.example:8443", name: "Home NAS", token: "bearer-0123456789", access: "gate")
        let text = try payload.text()
        #expect(
            text == #"{"v":2,"kind":"browsey-pair","url":"https://nas.example:8443","name":"Home NAS","#
                + #""token":"bearer-0123456789","access":"gate"}"#)
        #expect(!text.contains(#"\/"#), "slashes are not escaped: \(text)")
        #expect(try PairPayload.read(text) == payload)
        let server = try ServerLink.parse(text)
        #expect(server.baseURL == "https://nas.example:8443" && server.accessToken == "gate")
        #expect(try PairPayload(url: "http://nas:8080", name: "n").text().contains(#""v":1"#))
    }

    static let hostile: [(String, String)] = [
        (#"{"v":1,"kind":"browsey-share","url":"http://nas:8080","name":"x"}"#, "kind"),
        (#"{"v":1,"url":"http://nas:8080","name":"x"}"#, "kind"),
        (#"{"v":3,"kind":"browsey-pair","url":"https://nas:8080","name":"x"}"#, "version 3"),
        (#"{"v":"1","kind":"browsey-pair","url":"http://nas:8080","name":"x"}"#, "not the JSON"),
        (#"{"kind":"browsey-pair","url":"http://nas:8080","name":"x"}"#, "version"),
        (#"{"v":1,"kind":"browsey-pair","url":"ftp://nas:21","name":"x"}"#, "not an http(s) address"),
        (#"{"v":1,"kind":"browsey-pair","url":"javascript:alert(1)","name":"x"}"#, "not an http(s) address"),
        (#"{"v":1,"kind":"browsey-pair","url":"file:///etc/passwd","name":"x"}"#, "not an http(s) address"),
        (#"{"v":1,"kind":"browsey-pair","name":"x"}"#, "no url"),
        (#"{"v":1,"kind":"browsey-pair","url":"http://nas:8080","name":"x","access":"gate"}"#, "version 1"),
        (#"{"v":2,"kind":"browsey-pair","url":"http://nas:8080","name":"x","access":"gate"}"#, "https"),
        (#"{"v":2,"kind":"browsey-pair","url":"HTTP://nas:8080","name":"x","access":"gate"}"#, "https"),
        (
            #"{"v":2,"kind":"browsey-pair","url":"https://nas","name":"x","cf":{"id":"a","secret":"b"}}"#,
            "without the access token"
        ),
        (
            #"{"v":2,"kind":"browsey-pair","url":"https://nas","name":"x","access":"g","cf":{"id":"a"}}"#,
            "lack an id or a secret"
        ),
        (
            #"{"v":1,"kind":"browsey-pair","url":"http://nas:8080","name":"\u001b[31mred"}"#,
            "control characters"
        ),
        (
            #"{"v":1,"kind":"browsey-pair","url":"http://nas:8080","name":"\#(String(repeating: "n", count: 5000))"}"#,
            "more than 4096"
        ),
        (
            #"{"v":1,"kind":"browsey-pair","url":"http://nas:8080","name":"x","pad":"\#(String(repeating: "p", count: 17000))"}"#,
            "more than 16384"
        ),
        (#"{"v":1,"kind":"browsey-pair","url":"{\"v\":1}","name":"x"}"#, "not an http(s) address"),
        (#"{"v":1,"kind":"browsey-pair","url":123}"#, "not the JSON"),
        ("{not json", "not the JSON"),
    ]

    @Test("a hostile or malformed pair code is refused with a message saying why", arguments: hostile)
    func refused(text: String, why: String) {
        #expect {
            _ = try ServerLink.parse(text)
        } throws: { error in
            let error = error as? BrowseyClientError
            return error?.code == .invalidInput
                && error?.message.hasPrefix("This is not a Browsey pair code this app accepts") == true
                && error?.message.contains(why) == true
                && (error?.message.count ?? .max) < 600
        }
    }

    @Test("a saved server keeps its access token, and a list saved before access tokens still reads")
    func savedAccessToken() throws {
        let folder = try TemporaryFolder()
        let old = try folder.file(
            "old.json",
            #"[{"name":"Old","host":"192.168.1.9","port":8080,"scheme":"http","token":"t0123456789"}]"#)
        let servers = try SavedServers(file: old).load()
        #expect(servers.map(\.name) == ["Old"] && servers.first?.token == "t0123456789")
        #expect(servers.first?.accessToken == nil && servers.first?.otherAddresses == [])

        let store = SavedServers(file: folder.path("servers.json"))
        var paired = try ServerLink.parse(
            #"{"v":2,"kind":"browsey-pair","url":"https://nas.example","name":"NAS","access":"gate-0123"}"#)
        paired.serverId = "6f1c1f5e-5a43-4b7e-9a55-0c8f3c1f0a11"
        paired.otherAddresses = [Server.Address(host: "10.0.0.5", port: 443, scheme: .https)]
        try store.save(paired)
        let reread = try #require(try store.load().first)
        #expect(reread == paired)
        #expect(reread.accessToken == "gate-0123")
    }
}
