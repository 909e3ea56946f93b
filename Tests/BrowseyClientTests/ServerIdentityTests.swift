import BrowseyClient
import Foundation
import ServiceDiscovery
import Synchronization
import TestSupport
import Testing

@Suite("One server, however it was found")
@MainActor
struct ServerIdentityTests {
    nonisolated static let laptopID = "5e1f3a2b-7c4d-4e8f-9a0b-1c2d3e4f5a6b"
    nonisolated static let otherID = "0d9c8b7a-6f5e-4d3c-8b2a-190807060504"

    /// A discovery of `name` at `address` announcing `serverId` in its TXT record.
    static func found(_ name: String, at address: String, serverId: String) -> DiscoveredServer {
        let resolved = ResolvedService(
            instance: ServiceInstance(name: name, type: "_browsey._tcp."), hostName: "laptop.local.",
            port: 8080,
            txt: [
                "version": "0.1.0", "path": "/home/me/Notes", "protocol": "http", "readonly": "1",
                "serverId": serverId,
            ],
            interfaceIndex: 1)
        return DiscoveredServer(resolved: resolved, addresses: [address])
    }

    @Test(
        "a server found by Bonjour, by a QR code and by its typed address is one entry with every address"
    )
    func foundThreeWays() async throws {
        final class Silent: Sendable { let hosts = Mutex<Set<String>>([]) }
        let silent = Silent()
        let transport = ScriptedTransport { request, server in
            guard !silent.hosts.withLock({ $0.contains(server.host) }) else { return nil }
            let id: String
            switch server.host {
            case "192.0.2.7", "laptop.local", "10.0.0.5": id = Self.laptopID
            case "192.0.2.8": id = Self.otherID
            default: return nil
            }
            if request.target.hasPrefix("/api/health") { return .json(healthJSON(serverId: id)) }
            if request.target.hasPrefix("/api/list") { return .json(listingJSON(["a.txt"])) }
            return .json(#"{"error":"Not found"}"#, status: 404)
        }
        let support = try TemporaryFolder()
        let store = SavedServers(file: support.path("servers.json"))
        let announced = [
            Self.found("Browsey (Notes)", at: "192.0.2.7", serverId: Self.laptopID),
            Self.found("Browsey (Photos)", at: "192.0.2.8", serverId: Self.otherID),
        ]
        #expect(announced[0].serverId == Self.laptopID && announced[0].txt?["serverId"] == Self.laptopID)
        let model = ServerListModel(store: store, transport: transport) { _ in announced }

        await model.refresh()
        #expect(model.discovered.map(\.server.name) == ["Browsey (Notes)", "Browsey (Photos)"])

        // By QR code: the pair code names the laptop by its host name.
        let paired = try await model.add(
            link: #"{"v":1,"kind":"browsey-pair","url":"http://laptop.local:8080","name":"Laptop"}"#)
        #expect(paired.serverId == Self.laptopID)
        #expect(model.saved.map(\.server.name) == ["Laptop"])
        #expect(
            model.discovered.map(\.server.name) == ["Browsey (Photos)"], "the Bonjour entry is the saved one")

        // By hand, at another address: the same server, so the same entry.
        try await model.add(name: "Typed", host: "10.0.0.5", port: 8080)
        #expect(model.saved.count == 1)
        #expect(model.saved.first?.server.name == "Laptop", "the name the person gave first stays")
        #expect(model.saved.first?.server.host == "laptop.local", "the address saved first stays preferred")

        await model.refresh()
        #expect(model.discovered.map(\.server.name) == ["Browsey (Photos)"])
        let entry = try #require(model.saved.first)
        #expect(model.saved.count == 1 && entry.status == .online)
        #expect(
            Set(entry.server.addresses.map(\.host)) == ["laptop.local", "10.0.0.5", "192.0.2.7"],
            "\(entry.server.addresses)")
        let reopened = ServerListModel(store: store, transport: transport) { _ in [] }
        #expect(reopened.saved.map(\.server.addresses) == [entry.server.addresses], "the addresses are saved")

        // The preferred address goes silent: the next that answers as the same server takes over.
        silent.hosts.withLock { $0 = ["laptop.local"] }
        await model.refresh()
        let moved = try #require(model.saved.first)
        #expect(moved.status == .online && moved.server.host == "10.0.0.5")
        #expect(moved.server.addresses.map(\.host).contains("laptop.local"), "the silent address is kept")
        #expect(model.saved.count == 1 && model.discovered.count == 1)
    }

    @Test("two servers on one machine stay two entries: another serverId is another server")
    func differentIdentities() async throws {
        let transport = ScriptedTransport { request, server in
            let id = server.port == 8080 ? Self.laptopID : Self.otherID
            if request.target.hasPrefix("/api/health") { return .json(healthJSON(serverId: id)) }
            return .json(listingJSON([]))
        }
        let support = try TemporaryFolder()
        let model = ServerListModel(
            store: SavedServers(file: support.path("servers.json")), transport: transport
        ) {
            _ in []
        }
        try await model.add(name: "Notes", host: "laptop.local", port: 8080)
        try await model.add(name: "Photos", host: "laptop.local", port: 8081)
        #expect(model.saved.map(\.server.name) == ["Notes", "Photos"])
        #expect(model.saved.map(\.server.serverId) == [Self.laptopID, Self.otherID])
    }
}
