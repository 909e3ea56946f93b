public import Hummingbird
import NIOCore

/// What every handler of the server knows about the request it answers, beyond the request
/// itself: who sent it and what it may reach and do, as the middleware decided before any route
/// ran.
///
/// The server's router runs on this context; the middleware in front of the routes
/// (``TokenAuthentication``) records its decision here, so a handler never decides it again.
public struct FileServerContext: AuthenticatingRequestContext {
    /// Hummingbird's own storage: the logger, the request's decoder and encoder, parameters.
    public var coreContext: CoreRequestContextStorage
    /// Who sent the request.
    public var identity: RequestIdentity = .anyone
    /// What the request may reach and do, as ``AccessDecision`` decided it.
    public var access: RequestAccess = .nothing
    /// WebDAV's locks, which every write checks (``WriteLocks``); `nil` without WebDAV.
    var writeLocks: WriteLocks?
    /// The connection the request came on: a download hands its file to the connection's own
    /// ``DownloadWriter``.
    let connection: (any Channel)?

    /// The client's address as a proxy the server trusts forwarded it (``ClientAddress``);
    /// `nil` when the request came straight from the client.
    var forwardedAddress: String?

    /// The address the request came from, as the throttle and the audit log know it: the one a
    /// trusted proxy forwarded, else the connection's peer.
    var clientAddress: String {
        forwardedAddress ?? connection?.remoteAddress?.ipAddress ?? "local"
    }

    /// What a write request changes, noted as it resolves paths for writing (``ChangePublishing``).
    var touched: TouchedPaths?

    /// A context for a request on `source`'s connection.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = source.channel
    }
}

/// A request context that records what the middleware decided about a request: who sent it
/// (``TokenAuthentication``) and what it may do (``AccessDecision``).
public protocol AuthenticatingRequestContext: RequestContext {
    /// Who sent the request.
    var identity: RequestIdentity { get set }
    /// What the request may reach and do.
    var access: RequestAccess { get set }
}
