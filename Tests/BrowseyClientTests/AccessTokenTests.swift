import BrowseyClient
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("A server behind the access-token gate")
struct AccessTokenTests {
    /// A server that gates `/api/` as the contract says: the token `open-sesame-0123` in
    /// `X-Browsey-Access-Token` (any case), else 401 with `WWW-Authenticate: Browsey-Access`.
    static func gatedServer() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { head in
            let json = "Content-Type: application/json; charset=utf-8"
            let challenge = "WWW-Authenticate: Browsey-Access"
            let sent = ScriptedHTTPServer.header("x-browsey-access-token", in: head)
            guard let sent, !sent.allSatisfy(\.isWhitespace) else {
                return ("401 Unauthorized", [json, challenge], #"{"error":"Browsey access token required"}"#)
            }
            guard sent == "open-sesame-0123" else {
                return ("401 Unauthorized", [json, challenge], #"{"error":"Invalid Browsey access token"}"#)
            }
            if ScriptedHTTPServer.target(of: head).hasPrefix("/api/health") {
                return (
                    "200 OK", [json],
                    healthJSON(serverId: "c0ffee00-0000-4000-8000-000000000001", accessToken: true)
                )
            }
            return ("200 OK", [json], listingJSON(["a.txt", "b.txt"]))
        }
    }

    @Test(
        "a saved server's access token goes in X-Browsey-Access-Token on every request, never in the URL",
        arguments: TransportKind.allCases)
    func sendsTheHeader(transport: TransportKind) async throws {
        let gate = try Self.gatedServer()
        defer { gate.stop() }
        let server = try Server(
            name: "Gated", host: "127.0.0.1", port: gate.port, accessToken: "open-sesame-0123")
        let client = APIClient(server: server, transport: transport.make(), timeout: .seconds(30))
        #expect(try await client.health().serverId == "c0ffee00-0000-4000-8000-000000000001")
        #expect(try await client.list("/").items.map(\.name) == ["a.txt", "b.txt"])
        let connected = try await client.connect()
        #expect(connected.serverId == "c0ffee00-0000-4000-8000-000000000001")
        let heads = gate.received
        #expect(heads.count >= 3)
        for head in heads {
            #expect(ScriptedHTTPServer.header("X-Browsey-Access-Token", in: head) == "open-sesame-0123")
            #expect(!ScriptedHTTPServer.target(of: head).contains("sesame"), "never in the URL: \(head)")
            #expect(ScriptedHTTPServer.header("Authorization", in: head) == nil, "not a bearer token")
        }
    }

    @Test(
        "the gate's refusal is its own error, saying whether the token is missing or wrong",
        arguments: TransportKind.allCases)
    func refusals(transport: TransportKind) async throws {
        let gate = try Self.gatedServer()
        defer { gate.stop() }
        let missing = APIClient(
            server: try Server(name: "Gated", host: "127.0.0.1", port: gate.port),
            transport: transport.make(),
            timeout: .seconds(30))
        let unsent = await #expect(throws: BrowseyClientError.self) { try await missing.list("/") }
        #expect(unsent?.code == .accessToken && unsent?.status == 401)
        #expect(
            unsent?.message.contains("Gated asks for its access token") == true,
            "\(String(describing: unsent))")

        var wrongServer = try Server(name: "Gated", host: "127.0.0.1", port: gate.port)
        wrongServer.accessToken = "guess"
        let wrong = APIClient(server: wrongServer, transport: transport.make(), timeout: .seconds(30))
        let refused = await #expect(throws: BrowseyClientError.self) { try await wrong.health() }
        #expect(refused?.code == .accessToken)
        #expect(refused?.message.contains("refused the access token") == true)
        #expect(refused?.message.contains("guess") == false, "the value is never repeated")
    }

    @Test("a bearer refusal stays a bearer refusal: only the Browsey-Access challenge means the gate")
    func bearerIsNotTheGate() async throws {
        let bearer = try ScriptedHTTPServer { _ in
            (
                "401 Unauthorized",
                ["Content-Type: application/json", #"WWW-Authenticate: Bearer realm="Browsey API""#],
                #"{"error":"Unauthorized"}"#
            )
        }
        defer { bearer.stop() }
        let client = APIClient(
            server: try Server(name: "Signed", host: "127.0.0.1", port: bearer.port, accessToken: "gate"),
            transport: TransportKind.nio.make(), timeout: .seconds(30))
        let error = await #expect(throws: BrowseyClientError.self) { try await client.list("/") }
        #expect(error?.code == .unauthorized && error?.message.contains("asks for a token") == true)
    }

    @Test(
        "the server list saves a gated server only with its access token, and takes a new one when the gate changes"
    )
    @MainActor
    func serverList() async throws {
        final class Gate: Sendable { let value = Mutex("first-0123") }
        let gate = Gate()
        let transport = ScriptedTransport { request, _ in
            let sent = request.headers.first { $0.name.lowercased() == "x-browsey-access-token" }?.value
            guard sent == gate.value.withLock({ $0 }) else {
                return .json(
                    #"{"error":"Invalid Browsey access token"}"#, status: 401,
                    headers: [("WWW-Authenticate", "Browsey-Access")])
            }
            if request.target.hasPrefix("/api/health") { return .json(healthJSON(serverId: "gated-1")) }
            return .json(listingJSON(["a.txt"]))
        }
        let support = try TemporaryFolder()
        let store = SavedServers(file: support.path("servers.json"))
        let model = ServerListModel(store: store, transport: transport) { _ in [] }
        await #expect {
            try await model.add(name: "Gated", host: "nas.local", port: 8080)
        } throws: { ($0 as? BrowseyClientError)?.code == .accessToken }
        #expect(model.saved.isEmpty)
        try await model.add(name: "Gated", host: "nas.local", port: 8080, accessToken: "first-0123")
        #expect(model.saved.first?.server.accessToken == "first-0123")

        gate.value.withLock { $0 = "second-4567" }
        let entry = try #require(model.saved.first)
        await #expect {
            try await model.setAccessToken("wrong", for: entry)
        } throws: { ($0 as? BrowseyClientError)?.code == .accessToken }
        try await model.setAccessToken("second-4567", for: entry)
        let reopened = ServerListModel(store: store, transport: transport) { _ in [] }
        #expect(reopened.saved.map(\.server.accessToken) == ["second-4567"])
    }
}
