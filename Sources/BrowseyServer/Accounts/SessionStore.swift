import Crypto
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signed-in sessions: a random token per login, handed to the client once, kept in the
/// ``StateStore`` only as its SHA-256 digest, so that neither a copy of the store nor the time a
/// look-up takes tells a token.
///
/// A session names its user and a stamp of the password hash it signed in with: when the
/// password changes (a new hash in the accounts file), every session of the old one ends.
/// Sessions end at their expiry, at logout, and when the store is told the user is gone.
///
/// The session check runs on every signed-in request, so a session found is remembered here for
/// ``freshness`` (1 s): a sign-out at another instance holds here within that. While the store
/// cannot be reached, a session seen in the last ``grace`` (5 minutes) still opens, so that people
/// already signed in keep working through a database restart.
public final class SessionStore: Sendable {
    /// One session as stored.
    public typealias Session = StoredSession

    /// How long a session found in the store is taken as it was.
    public let freshness: Duration
    /// How long a session found before still opens while the store is unreachable.
    public let grace: Duration

    private struct Seen {
        let session: Session
        let at: ContinuousClock.Instant
    }

    private let store: any StateStore
    private let seen = Mutex<[String: Seen]>([:])
    /// Sessions ended here that the store did not forget: refused here all the same.
    private let ended = Mutex<Set<String>>([])
    private let now: @Sendable () -> Int64

    /// Sessions kept in `store`; `now` tells the time (seconds since 1970).
    public init(
        store: any StateStore, now: @escaping @Sendable () -> Int64 = SessionStore.wallClock,
        freshness: Duration = .seconds(1), grace: Duration = .seconds(300)
    ) {
        self.store = store
        self.now = now
        self.freshness = freshness
        self.grace = grace
    }

    /// Seconds since 1970.
    public static let wallClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }

    /// Starts a session for `user`, signed in with `password`, for `lifetime`; returns its token
    /// (256 bits from the system's secure generator, in hex) and when it ends. A session the
    /// store did not keep is not started: it would open nothing at the other instances.
    public func start(
        user: String, password: PasswordHash, lifetime: Duration
    ) async throws(StateStoreError) -> (token: String, expires: Int64) {
        var generator = SystemRandomNumberGenerator()
        let token = Hex.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let expires = now() + lifetime.components.seconds
        let session = Session(user: user, stamp: Self.stamp(password), expires: expires)
        let key = Self.key(token)
        try await store.saveSession(session, key: key)
        // Ended sessions are swept at each sign-in, so the store holds only live ones.
        try? await store.deleteSessions(endingBy: now())
        remember(key, session)
        return (token, expires)
    }

    /// The live session a token opens, `nil` for an unknown or expired one or one whose password
    /// changed since; throws when the store cannot say.
    public func session(
        _ token: some StringProtocol, password: (String) -> PasswordHash?
    ) async throws(StateStoreError) -> Session? {
        guard token.utf8.count == 64 else { return nil }
        let key = Self.key(String(token))
        if ended.withLock({ $0.contains(key) }) { return nil }
        let recent = seen.withLock { $0[key] }
        let session: Session?
        if let recent, recent.at.duration(to: .now) < freshness {
            session = recent.session
        } else {
            do {
                session = try await store.session(key: key)
            } catch {
                guard error.isTransient, let recent, recent.at.duration(to: .now) < grace else { throw error }
                return recent.session.expires > now() ? recent.session : nil
            }
            if let session {
                remember(key, session)
            } else {
                seen.withLock { _ = $0.removeValue(forKey: key) }
            }
        }
        guard let session else { return nil }
        guard session.expires > now(), let current = password(session.user),
            Self.stamp(current) == session.stamp
        else {
            // Ended here at once; the store forgets it now or at the next sign-in's sweep.
            seen.withLock { _ = $0.removeValue(forKey: key) }
            try? await store.deleteSession(key: key)
            return nil
        }
        return session
    }

    /// The session `token` opens for a user of `accounts`, as a request's answer needs it: 503
    /// `stateUnavailable` when the store cannot say.
    func session(_ token: some StringProtocol, of accounts: Accounts) async throws(APIError) -> Session? {
        do {
            return try await session(token, password: { accounts.users[$0]?.password })
        } catch {
            throw APIError.state(error, "Your session cannot be checked")
        }
    }

    /// Ends the session of `token`, here at once; throws when the store did not forget it
    /// (asking again deletes it again), and the token opens nothing here all the same.
    public func end(_ token: some StringProtocol) async throws(StateStoreError) {
        let key = Self.key(String(token))
        seen.withLock { _ = $0.removeValue(forKey: key) }
        do {
            try await store.deleteSession(key: key)
        } catch {
            ended.withLock { ended in
                if ended.count >= 10_000 { ended.removeAll() }
                ended.insert(key)
            }
            throw error
        }
    }

    /// Remembers a session found, within a bound: past 10,000 the oldest half is dropped.
    private func remember(_ key: String, _ session: Session) {
        seen.withLock { seen in
            if seen.count >= 10_000 {
                let cutoff = seen.values.map(\.at).sorted()[seen.count / 2]
                seen = seen.filter { $0.value.at > cutoff }
            }
            seen[key] = Seen(session: session, at: .now)
        }
    }

    static func key(_ token: String) -> String { Hex.encode(SHA256.hash(data: Array(token.utf8))) }

    static func stamp(_ password: PasswordHash) -> String {
        Hex.encode(SHA256.hash(data: Array(password.description.utf8)).prefix(16))
    }
}
