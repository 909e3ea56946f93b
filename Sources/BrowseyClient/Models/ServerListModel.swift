public import Observation
public import ServiceDiscovery

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The companion app's server list: servers found on the network and servers saved, each
/// with an online/offline status; adding by hand (checked before it is saved) or from a link or
/// QR code, renaming and removing. A SwiftUI list binds to it and holds no logic of its own.
///
/// One server is one entry, however it was found: entries that share a ``Server/serverId``
/// (from `/api/health`, or a Bonjour record's `serverId`) are merged, keeping every address
/// (``Server/addresses``). The preferred address is the one saved first, since the person
/// chose it; while it is silent, ``refresh(discoveringFor:)`` makes the first other address
/// that answers as the same server preferred instead.
@MainActor
@Observable
public final class ServerListModel {
    /// Whether a server answers.
    public enum Status: Sendable, Hashable {
        /// Not checked yet.
        case unknown
        /// It answered `/api/health`.
        case online
        /// It did not; why, in words.
        case offline(String)
    }

    /// One row of the list.
    public struct Entry: Sendable, Hashable, Identifiable {
        /// The server's address, unique in the list.
        public var id: String { server.id }
        /// The server.
        public var server: Server
        /// Whether it answers.
        public var status: Status
    }

    /// The saved servers, in the order saved.
    public private(set) var saved: [Entry] = []
    /// The servers found on the network (not saved ones), by name.
    public private(set) var discovered: [Entry] = []
    /// Whether a refresh is under way (for pull-to-refresh).
    public private(set) var isRefreshing = false
    /// The last problem with the saved list itself (a file that cannot be read or written).
    public private(set) var storageError: BrowseyClientError?

    private let store: SavedServers
    private let transport: any HTTPTransport
    private let discover: @Sendable (Duration) async throws -> [DiscoveredServer]

    /// A list kept in `store`, checking servers over `transport`; `discover` finds servers on
    /// the network (Bonjour by default).
    public init(
        store: SavedServers, transport: any HTTPTransport,
        discover: @escaping @Sendable (Duration) async throws -> [DiscoveredServer] = { duration in
            try await Bonjour().discoverBrowseyServers(for: duration)
        }
    ) {
        self.store = store
        self.transport = transport
        self.discover = discover
        do {
            saved = try store.load().map { Entry(server: $0, status: .unknown) }
        } catch {
            storageError = error
        }
    }

    /// A client for `server`.
    public func client(for server: Server) -> APIClient { APIClient(server: server, transport: transport) }

    /// Looks for servers on the network for `duration` and checks every server's status. A
    /// saved server whose preferred address is silent is tried at its other addresses, and the
    /// first that answers as the same server becomes preferred. Servers that turn out to share
    /// a ``Server/serverId`` become one entry; a server found on the network that is a saved one
    /// adds its addresses to it instead of being listed twice.
    public func refresh(discoveringFor duration: Duration = .seconds(2)) async {
        isRefreshing = true
        defer { isRefreshing = false }
        let found = (try? await discover(duration)) ?? []
        var learned = false
        for entry in saved {
            let (server, status) = await check(entry.server)
            guard let index = saved.firstIndex(where: { $0.id == entry.id }) else { continue }
            if server != saved[index].server {
                saved[index].server = server
                learned = true
            }
            saved[index].status = status
        }
        var merged = Self.mergingSameServers(saved)
        var entries: [Entry] = []
        for server in found.compactMap(Self.server(from:)) {
            if let index = merged.firstIndex(where: { Self.isSame($0.server, server) }) {
                merged[index].server = Self.merge(server, into: merged[index].server)
            } else if let index = entries.firstIndex(where: { Self.isSame($0.server, server) }) {
                entries[index].server = Self.merge(server, into: entries[index].server)
            } else {
                entries.append(Entry(server: server, status: .online))
            }
        }
        discovered = entries
        // Saved when an entry learned something (its identity, a preferred address, others).
        let changed = learned || merged != saved
        if merged != saved { saved = merged }
        if changed { persist() }
    }

    /// The server's status at its preferred address, or at the first other address that
    /// answers as the same server (which then becomes preferred); the identity it gives is kept.
    private func check(_ server: Server) async -> (Server, Status) {
        var firstError: BrowseyClientError?
        for address in server.addresses {
            var candidate = server
            candidate.address = address
            switch await client(for: candidate).status() {
            case .online(let health):
                // Another server now answers there: not this one.
                if let known = server.serverId, let id = health.serverId, id != known {
                    firstError =
                        firstError
                        ?? BrowseyClientError(.httpStatus, "another Browsey server answers at \(address) now")
                    continue
                }
                var answered = server
                if let id = health.serverId, !id.isEmpty { answered.serverId = id }
                if address != server.address {
                    answered.otherAddresses = server.addresses.filter { $0 != address }
                    answered.address = address
                }
                return (answered, .online)
            case .offline(let error):
                firstError = firstError ?? error
            }
        }
        return (server, .offline(firstError?.message ?? "no address answered"))
    }

    /// Adds a server typed by hand, once it answers (and accepts the token and the access
    /// token): the entry is checked, then tried, then saved. Throws what went wrong, saving
    /// nothing: `accessToken` when the server's gate wants an access token this call lacks.
    @discardableResult
    public func add(
        name: String?, host: String, port: Int, token: String? = nil, accessToken: String? = nil
    ) async throws(BrowseyClientError) -> Server {
        try await add(try Server(name: name, host: host, port: port, token: token, accessToken: accessToken))
    }

    /// Adds the server a link or QR code names (`http://host:port/?token=…`), once it answers.
    @discardableResult
    public func add(link: String, name: String? = nil) async throws(BrowseyClientError) -> Server {
        try await add(try ServerLink.parse(link, name: name))
    }

    /// Adds a discovered server to the saved ones, once it answers; `accessToken` for one
    /// behind an access token (a Bonjour record never carries it).
    @discardableResult
    public func save(_ entry: Entry, accessToken: String? = nil) async throws(BrowseyClientError) -> Server {
        var server = entry.server
        if let accessToken, !accessToken.isEmpty { server.accessToken = accessToken }
        return try await add(server)
    }

    /// Gives a saved server the access token its gate asks for (a new one, or none), once the
    /// server accepts it; throws what the server answered, changing nothing.
    public func setAccessToken(_ accessToken: String?, for entry: Entry) async throws(BrowseyClientError) {
        var server = entry.server
        server.accessToken = accessToken.flatMap { $0.isEmpty ? nil : $0 }
        let connected = try await client(for: server).connect()
        guard let index = saved.firstIndex(where: { $0.id == entry.id }) else { return }
        saved[index] = Entry(server: connected, status: .online)
        persist()
    }

    /// Renames a saved server.
    public func rename(_ entry: Entry, to name: String) {
        guard let index = saved.firstIndex(where: { $0.id == entry.id }), !name.isEmpty else { return }
        saved[index].server.name = name
        persist()
    }

    /// Signs in to a saved server with a user name and password: the session's token is kept in
    /// the saved entry (the password never is), and the entry shows who signed in
    /// (``Server/username``). Throws what the server answered, changing nothing.
    public func signIn(_ entry: Entry, username: String, password: String) async throws(BrowseyClientError) {
        let login = try await client(for: entry.server.signedOut()).signIn(
            username: username, password: password)
        guard let index = saved.firstIndex(where: { $0.id == entry.id }) else { return }
        saved[index].server = saved[index].server.signedIn(login)
        saved[index].status = .online
        persist()
    }

    /// Signs out of a saved server: its session ends and its token is forgotten.
    public func signOut(_ entry: Entry) async {
        try? await client(for: entry.server).signOut()
        guard let index = saved.firstIndex(where: { $0.id == entry.id }) else { return }
        saved[index].server = saved[index].server.signedOut()
        persist()
    }

    /// Forgets a saved server.
    public func remove(_ entry: Entry) {
        saved.removeAll { $0.id == entry.id }
        persist()
    }

    /// Tries `server`, then saves it: merged into the saved entry of the same server (the same
    /// ``Server/serverId``), which keeps its name and preferred address and gains this one; else
    /// replacing an entry at the same address (another server answers there now); else added.
    private func add(_ server: Server) async throws(BrowseyClientError) -> Server {
        let connected = try await client(for: server).connect()
        let result: Server
        if let id = connected.serverId, let index = saved.firstIndex(where: { $0.server.serverId == id }) {
            var kept = saved[index].server
            // The address may have been saved before the server gave its identity: that entry
            // is this server too.
            if let older = saved.firstIndex(where: { $0.id == connected.id && $0.server.serverId == nil }) {
                kept = Self.merge(saved[older].server, into: kept)
            }
            result = Self.merge(connected, into: kept)
            saved[index] = Entry(server: result, status: .online)
            saved.removeAll { $0.id == connected.id && $0.server.serverId == nil }
        } else if let index = saved.firstIndex(where: { $0.id == connected.id }) {
            result = connected
            saved[index] = Entry(server: result, status: .online)
        } else {
            result = connected
            saved.append(Entry(server: result, status: .online))
        }
        discovered.removeAll { Self.isSame($0.server, result) }
        persist()
        return result
    }

    /// The most addresses kept for one server besides its preferred one.
    static let otherAddressLimit = 8

    /// Whether two entries are one server: the same ``Server/serverId`` when both know theirs,
    /// else a shared address.
    static func isSame(_ one: Server, _ other: Server) -> Bool {
        if let first = one.serverId, let second = other.serverId { return first == second }
        return one.addresses.contains(other.address) || other.addresses.contains(one.address)
    }

    /// `found` folded into `kept`: kept's name and preferred address stay (the person chose
    /// them), found's addresses join the others, and found's secrets, identity and sign-in,
    /// when it has them, are the newer ones.
    static func merge(_ found: Server, into kept: Server) -> Server {
        var server = kept
        for address in found.addresses where !server.addresses.contains(address) {
            server.otherAddresses.append(address)
        }
        // The oldest learned go first past the limit.
        if server.otherAddresses.count > otherAddressLimit {
            server.otherAddresses.removeFirst(server.otherAddresses.count - otherAddressLimit)
        }
        server.serverId = kept.serverId ?? found.serverId
        if let token = found.token {
            server.token = token
            server.username = found.username
        }
        if let access = found.accessToken { server.accessToken = access }
        if let cloudflare = found.cloudflareAccess { server.cloudflareAccess = cloudflare }
        if let last = found.lastConnected, last > (kept.lastConnected ?? .distantPast) {
            server.lastConnected = last
        }
        return server
    }

    /// `entries` with those that share a ``Server/serverId`` folded into the first of them.
    static func mergingSameServers(_ entries: [Entry]) -> [Entry] {
        var result: [Entry] = []
        for entry in entries {
            if let id = entry.server.serverId,
                let index = result.firstIndex(where: { $0.server.serverId == id })
            {
                result[index].server = merge(entry.server, into: result[index].server)
                if case .online = entry.status { result[index].status = .online }
            } else {
                result.append(entry)
            }
        }
        return result
    }

    private func persist() {
        do {
            try store.store(saved.map(\.server))
            storageError = nil
        } catch {
            storageError = error
        }
    }

    /// The server a discovery names, reached by its first address (IPv4 first), with its other
    /// addresses and its host name kept as the others, and its identity when announced.
    static func server(from found: DiscoveredServer) -> Server? {
        let secure = found.url.hasPrefix("https://")
        guard
            var server = try? Server(
                name: found.name, host: found.addresses.first ?? found.hostName, port: found.port,
                scheme: secure ? .https : .http)
        else { return nil }
        server.serverId = found.serverId
        for host in found.addresses.dropFirst() + [found.hostName] where Server.isValidHost(host) {
            let address = Server.Address(host: host, port: found.port, scheme: server.scheme)
            if !server.addresses.contains(address) { server.otherAddresses.append(address) }
        }
        return server
    }
}
