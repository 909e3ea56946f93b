import BrowseyAPI
import BrowseyClient
import BrowseyServer
import BrowseyURLSession
import Foundation
import TestSupport
import Testing

@Suite("Signing in and sharing from the client")
struct AccountsClientTests {
    // swift-format-ignore: NeverUseForceTry
    // Fixed, valid inputs: a failure here is a broken test, not a case to handle.
    static let accounts: Accounts = {
        let hash = try! PasswordHash.make(password: "bob's password", logN: 10)
        let json = #"{"users": {"bob": {"password": "\#(hash)"}}, "folders": {"/docs": {"bob": "read"}}}"#
        return try! Accounts(json: Array(json.utf8))
    }()

    @Test("a client signs in, keeps only the token, reads what bob may, and makes, lists and revokes a share")
    func signInAndShare() async throws {
        try await LiveServer.with(try LiveServer.makeTree(), transport: .nio, accounts: Self.accounts) {
            _, anonymous in
            await #expect(throws: BrowseyClientError.self) { _ = try await anonymous.list("/docs") }
            await #expect(throws: BrowseyClientError.self) {
                _ = try await anonymous.signIn(username: "bob", password: "wrong")
            }
            try await Task.sleep(for: .milliseconds(300))  // past the failed login's backoff
            let login = try await anonymous.signIn(username: "bob", password: "bob's password")
            var client = anonymous
            client.server = anonymous.server.signedIn(login)
            #expect(client.server.username == "bob" && client.server.token == login.token)
            #expect(try await client.list("/docs").items.count == 3)
            #expect(try await client.session(at: "/docs").rights == ["read"])
            let share = try await client.share("/docs/café ☕.txt", expires: Date().addingTimeInterval(3600))
            #expect(share.url == "/s/" + share.id && !share.hasPassword)
            #expect(try await client.shares().map(\.id) == [share.id])
            try await client.unshare(share.id)
            #expect(try await client.shares().isEmpty)
            try await client.signOut()
            await #expect(throws: BrowseyClientError.self) { _ = try await client.list("/docs") }
        }
    }

    @Test(
        "the server list signs a saved server in: the entry shows who, and the saved file holds the token, never the password"
    )
    @MainActor
    func serverList() async throws {
        let support = try TemporaryFolder()
        let store = SavedServers(file: support.path("servers.json"))
        try await LiveServer.with(try LiveServer.makeTree(), accounts: Self.accounts) {
            @MainActor server, _ in
            let model = ServerListModel(store: store, transport: URLSessionTransport()) { _ in [] }
            try await model.add(name: "Home", host: "127.0.0.1", port: server.port)
            try await model.signIn(model.saved[0], username: "bob", password: "bob's password")
            #expect(model.saved[0].server.username == "bob" && model.saved[0].server.token?.count == 64)
            let saved = try String(contentsOfFile: support.path("servers.json"), encoding: .utf8)
            #expect(!saved.contains("bob's password"))
            let reopened = ServerListModel(store: store, transport: URLSessionTransport()) { _ in [] }
            #expect(reopened.saved.first?.server.username == "bob")
            let client = reopened.client(for: reopened.saved[0].server)
            #expect(try await client.list("/docs").items.count == 3)
            await reopened.signOut(reopened.saved[0])
            #expect(reopened.saved[0].server.token == nil && reopened.saved[0].server.username == nil)
            await #expect(throws: BrowseyClientError.self) { _ = try await client.list("/docs") }
        }
    }
}
