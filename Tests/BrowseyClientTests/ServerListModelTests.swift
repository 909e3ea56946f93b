import BrowseyClient
import BrowseyURLSession
import Foundation
import ServiceDiscovery
import TestSupport
import Testing

@Suite("The server list's model")
@MainActor
struct ServerListModelTests {
    @Test("servers added by hand or by link are tried first, then saved; rename and remove persist")
    func savedServers() async throws {
        let tree = try LiveServer.makeTree()
        let support = try TemporaryFolder()
        let store = SavedServers(file: support.path("servers.json"))
        try await LiveServer.with(tree, token: "list-token-0123456789") { @MainActor server, _ in
            let model = ServerListModel(store: store, transport: URLSessionTransport()) { _ in [] }
            await #expect {
                try await model.add(name: "No token", host: "127.0.0.1", port: server.port)
            } throws: { ($0 as? BrowseyClientError)?.code == .unauthorized }
            await #expect {
                try await model.add(name: "Nobody", host: "127.0.0.1", port: 9)
            } throws: { ($0 as? BrowseyClientError)?.code == .unreachable }
            #expect(model.saved.isEmpty, "nothing saved that does not answer")

            let added = try await model.add(
                link: "http://127.0.0.1:\(server.port)/?token=list-token-0123456789", name: "Home")
            #expect(added.lastConnected != nil)
            #expect(model.saved.map(\.server.name) == ["Home"] && model.saved.first?.status == .online)

            model.rename(model.saved[0], to: "Home NAS ☁︎")
            let reopened = ServerListModel(store: store, transport: URLSessionTransport()) { _ in [] }
            #expect(reopened.saved.map(\.server.name) == ["Home NAS ☁︎"])
            #expect(reopened.saved.first?.server.token == "list-token-0123456789")
            #expect(reopened.saved.first?.status == .unknown)
            await reopened.refresh()
            #expect(reopened.saved.first?.status == .online)

            reopened.remove(reopened.saved[0])
            #expect(ServerListModel(store: store, transport: URLSessionTransport()) { _ in [] }.saved.isEmpty)
        }
    }

    @Test(
        "refresh lists what discovery found (minus saved ones) and marks a saved server that stopped as offline"
    )
    func discoveredAndOffline() async throws {
        let support = try TemporaryFolder()
        let store = SavedServers(file: support.path("servers.json"))
        try store.store([try Server(name: "Old laptop", host: "127.0.0.1", port: 9)])
        let instance = ServiceInstance(name: "Browsey (Photos)", type: "_browsey._tcp.")
        let resolved = ResolvedService(
            instance: instance, hostName: "nas.local.", port: 8080,
            txt: ["path": "/srv/Photos", "readonly": "1"],
            interfaceIndex: 1)
        let found = DiscoveredServer(resolved: resolved, addresses: ["192.0.2.7"])
        let model = ServerListModel(store: store, transport: URLSessionTransport()) { _ in [found] }
        await model.refresh()
        #expect(model.discovered.map(\.server.name) == ["Browsey (Photos)"])
        #expect(
            model.discovered.first?.server.host == "192.0.2.7" && model.discovered.first?.server.port == 8080)
        guard case .offline(let why) = model.saved.first?.status else {
            Issue.record(
                "a server that does not answer is offline: \(String(describing: model.saved.first?.status))")
            return
        }
        #expect(why.contains("cannot reach"))
        #expect(!model.isRefreshing)
    }
}
