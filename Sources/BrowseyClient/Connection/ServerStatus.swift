public import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Whether a server answers, as a server list shows it.
public enum ServerStatus: Sendable {
    /// It answered `/api/health`.
    case online(HealthResponse)
    /// It did not; the error says why.
    case offline(BrowseyClientError)

    /// Whether it answered.
    public var isOnline: Bool {
        if case .online = self { return true }
        return false
    }
}

extension APIClient {
    /// A cheap check (`GET /api/health`, a few hundred bytes, no token needed) with a short
    /// timeout, for a list's online/offline dots.
    public func status(timeout: Duration = .seconds(3)) async -> ServerStatus {
        var quick = self
        quick.timeout = timeout
        do {
            return .online(try await quick.health())
        } catch {
            return .offline(error)
        }
    }

    /// Tests the connection before a server is saved: the server must answer, and with a token
    /// it must accept it (a listing of `/`; on a server with accounts, `/api/session`, since what
    /// it lists depends on who signs in). Returns the server with ``Server/lastConnected`` set,
    /// and ``Server/serverId`` when the server gives its identity.
    public func connect() async throws(BrowseyClientError) -> Server {
        let health = try await health()
        // A server with accounts is reached before anyone signs in: what it lists depends on who
        // does. Any other must list its root (which checks the token).
        let hasAccounts = (try? await session(at: "/"))?.accounts == true
        if !hasAccounts { _ = try await list("/") }
        var connected = server
        connected.lastConnected = Date()
        if let id = health.serverId, !id.isEmpty { connected.serverId = id }
        return connected
    }
}
