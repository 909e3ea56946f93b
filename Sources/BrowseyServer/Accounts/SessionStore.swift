import Crypto
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signed-in sessions: a random token per login, handed to the client once, kept here only
/// as its SHA-256 digest, so that neither a copy of the store nor the time a look-up takes
/// tells a token.
///
/// A session names its user and a stamp of the password hash it signed in with: when the
/// password changes (a new hash in the accounts file), every session of the old one ends.
/// Sessions end at their expiry, at logout, and when the store is told the user is gone.
public final class SessionStore: Sendable {
    /// One session as stored.
    public struct Session: Sendable, Hashable {
        /// The account's name.
        public let user: String
        /// A digest of the password hash it signed in with.
        public let stamp: String
        /// When it ends, in seconds since 1970.
        public let expires: Int64
    }

    private let sessions = Mutex<[String: Session]>([:])
    private let persistence: AccountsDatabase?
    private let now: @Sendable () -> Int64

    /// A store kept in the SQLite database at `path` (surviving restarts), or in memory only
    /// when `path` is `nil`; `now` tells the time (seconds since 1970).
    public convenience init(
        path: String?, now: @escaping @Sendable () -> Int64 = SessionStore.wallClock
    ) throws(ServerSetupError) {
        try self.init(
            database: path.map { (path) throws(ServerSetupError) in try AccountsDatabase(path: path) },
            now: now)
    }

    /// A store kept in `database`, or in memory only.
    init(
        database: AccountsDatabase?, now: @escaping @Sendable () -> Int64 = SessionStore.wallClock
    ) throws(ServerSetupError) {
        self.now = now
        if let database {
            persistence = database
            let loaded = try database.load(after: now())
            sessions.withLock { $0 = loaded }
        } else {
            persistence = nil
        }
    }

    /// Seconds since 1970.
    public static let wallClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// Starts a session for `user`, signed in with `password`, for `lifetime`; returns its token
    /// (256 bits from the system's secure generator, in hex) and when it ends.
    public func start(
        user: String, password: PasswordHash, lifetime: Duration
    ) -> (token: String, expires: Int64) {
        var generator = SystemRandomNumberGenerator()
        let token = Hex.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let expires = now() + lifetime.components.seconds
        let session = Session(user: user, stamp: Self.stamp(password), expires: expires)
        let key = Self.key(token)
        sessions.withLock { $0[key] = session }
        // A session the database refuses is logged there and lives in memory until a restart.
        try? persistence?.save(key: key, session)
        return (token, expires)
    }

    /// The live session a token opens, `nil` for an unknown or expired one or one whose password
    /// changed since.
    public func session(_ token: some StringProtocol, password: (String) -> PasswordHash?) -> Session? {
        guard token.utf8.count == 64 else { return nil }
        let key = Self.key(String(token))
        guard let session = sessions.withLock({ $0[key] }) else { return nil }
        guard session.expires > now(), let current = password(session.user),
            Self.stamp(current) == session.stamp
        else {
            // A refusal is logged by the database; the row is checked again when read back.
            try? end(token)
            return nil
        }
        return session
    }

    /// Ends the session of `token`, here at once; throws when the database refuses to forget
    /// it, which would bring it back at the next restart (asking again deletes it again).
    public func end(_ token: some StringProtocol) throws(AccountsStorageError) {
        let key = Self.key(String(token))
        sessions.withLock { _ = $0.removeValue(forKey: key) }
        try persistence?.delete(key: key)
    }

    /// How many sessions are kept (expired ones included until they are next asked for).
    public var count: Int { sessions.withLock { $0.count } }

    static func key(_ token: String) -> String { Hex.encode(SHA256.hash(data: Array(token.utf8))) }

    static func stamp(_ password: PasswordHash) -> String {
        Hex.encode(SHA256.hash(data: Array(password.description.utf8)).prefix(16))
    }
}
