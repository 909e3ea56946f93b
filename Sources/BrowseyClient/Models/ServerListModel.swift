public import Observation
public import ServiceDiscovery

/// The companion app's server list: servers found on the network and servers saved, each
/// with an online/offline status; adding by hand (checked before it is saved) or from a link or
/// QR code, renaming and removing. A SwiftUI list binds to it and holds no logic of its own.
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

    /// Looks for servers on the network for `duration` and checks every server's status.
    public func refresh(discoveringFor duration: Duration = .seconds(2)) async {
        isRefreshing = true
        defer { isRefreshing = false }
        let found = (try? await discover(duration)) ?? []
        let savedIDs = Set(saved.map(\.id))
        discovered = found.compactMap { Self.server(from: $0) }.filter { !savedIDs.contains($0.id) }
            .map { Entry(server: $0, status: .online) }
        for index in saved.indices {
            let status = await client(for: saved[index].server).status()
            guard index < saved.count else { break }
            switch status {
            case .online: saved[index].status = .online
            case .offline(let error): saved[index].status = .offline(error.message)
            }
        }
    }

    /// Adds a server typed by hand, once it answers (and accepts the token): the entry is
    /// checked, then tried, then saved. Throws what went wrong, saving nothing.
    @discardableResult
    public func add(
        name: String?, host: String, port: Int, token: String? = nil
    ) async throws(BrowseyClientError) -> Server {
        try await add(try Server(name: name, host: host, port: port, token: token))
    }

    /// Adds the server a link or QR code names (`http://host:port/?token=…`), once it answers.
    @discardableResult
    public func add(link: String, name: String? = nil) async throws(BrowseyClientError) -> Server {
        try await add(try ServerLink.parse(link, name: name))
    }

    /// Adds a discovered server to the saved ones, once it answers.
    @discardableResult
    public func save(_ entry: Entry) async throws(BrowseyClientError) -> Server {
        try await add(entry.server)
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

    private func add(_ server: Server) async throws(BrowseyClientError) -> Server {
        let connected = try await client(for: server).connect()
        if let index = saved.firstIndex(where: { $0.id == connected.id }) {
            saved[index] = Entry(server: connected, status: .online)
        } else {
            saved.append(Entry(server: connected, status: .online))
        }
        discovered.removeAll { $0.id == connected.id }
        persist()
        return connected
    }

    private func persist() {
        do {
            try store.store(saved.map(\.server))
            storageError = nil
        } catch {
            storageError = error
        }
    }

    /// The server a discovery names, reached by its first address.
    static func server(from found: DiscoveredServer) -> Server? {
        let secure = found.url.hasPrefix("https://")
        return try? Server(
            name: found.name, host: found.addresses.first ?? found.hostName, port: found.port,
            scheme: secure ? .https : .http)
    }
}
