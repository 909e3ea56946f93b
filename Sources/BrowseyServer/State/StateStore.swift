/// Everything the server keeps that is not a file: sessions, share links and their download
/// counts, and the failed tries that slow logins and link passwords down.
///
/// One server keeps it in SQLite (``SQLiteStateStore``, the default); several servers over one
/// folder keep it in one PostgreSQL database (``PostgresStateStore``), so that what one of them
/// does holds at all of them. Nothing outside a store knows which database it is: every call is
/// async, and every failure is a ``StateStoreError`` saying whether to try again later.
///
/// Times are seconds since 1970, but for the throttle's, which are milliseconds: a wait starts
/// at a quarter of a second.
public protocol StateStore: Sendable {
    /// `sqlite` or `postgresql`, for the banner and `/api/health`.
    var kind: String { get }

    /// Whether the last call reached the database (no call is made to say so): for
    /// `/api/health`, which must stay fast.
    var lastCallReached: Bool { get }
    /// Asks the database something trivial: whether it answers now (`/api/ready`).
    func ping() async throws(StateStoreError)

    // MARK: Sessions, keyed by their token's digest (never the token)

    /// Keeps a session, replacing one of the same key.
    func saveSession(_ session: StoredSession, key: String) async throws(StateStoreError)
    /// The session of `key`, ended or not; `nil` when there is none.
    func session(key: String) async throws(StateStoreError) -> StoredSession?
    /// Forgets a session.
    func deleteSession(key: String) async throws(StateStoreError)
    /// Forgets every session that ends at or before `time`.
    func deleteSessions(endingBy time: Int64) async throws(StateStoreError)

    // MARK: Share links

    /// Keeps a new share.
    func insertShare(_ share: Share) async throws(StateStoreError)
    /// The share of `id`, expired or not.
    func share(id: String) async throws(StateStoreError) -> Share?
    /// Every share, oldest first.
    func shares() async throws(StateStoreError) -> [Share]
    /// Forgets a share; whether there was one.
    @discardableResult
    func deleteShare(id: String) async throws(StateStoreError) -> Bool
    /// Counts one download of a share, in one step wherever it is asked from.
    func countDownload(share id: String) async throws(StateStoreError)

    // MARK: Failed tries (``LoginThrottle``)

    /// The latest time (ms) before which any of `keys` may not try again; 0 when none waits.
    func throttledUntil(_ keys: [String]) async throws(StateStoreError) -> Int64
    /// Records a failed try of `key` at `now` (ms): the count goes up by one (or starts over when
    /// its last wait passed more than four caps ago) and the wait doubles from 250 ms to `cap`.
    func recordFailure(_ key: String, now: Int64, cap: Int64) async throws(StateStoreError)
    /// Forgets the failures of `keys`.
    func clearFailures(_ keys: [String]) async throws(StateStoreError)

    // MARK: WebDAV locks

    /// Every lock kept, lapsed ones included.
    func locks() async throws(StateStoreError) -> [StoredLock]
    /// Changes the locks in one step no other instance interleaves with: `change` sees every lock
    /// kept and answers its result and what to change.
    func changeLocks<Result: Sendable>(
        _ change: @escaping @Sendable ([StoredLock]) -> (Result, LockChange)
    ) async throws(StateStoreError) -> Result

    // MARK: The change feed

    /// Tells the other instances that `paths` (from the served root, such as `/docs/a.txt`)
    /// changed through the instance `origin`. A store of one server has no one to tell.
    func publishChanges(_ paths: [String], origin: String) async throws(StateStoreError)
    /// The changes published after `sequence` by instances other than `origin`, at most `limit`,
    /// and the sequence to ask after next time; with `sequence` < 0, none and the latest.
    func changes(
        after sequence: Int64, excluding origin: String, limit: Int
    ) async throws(StateStoreError) -> (paths: [String], last: Int64)

    /// Returns when another instance may have published a change, or after `timeout`.
    func waitForChanges(upTo timeout: Duration) async

    // MARK: Identity

    /// The server's id as the store keeps it: the first instance to ask keeps `proposed`, and
    /// every later one gets the same back. A store of one server keeps none and answers `nil`.
    func sharedServerID(proposed: String) async throws(StateStoreError) -> String?
}

/// One session as a store keeps it.
public struct StoredSession: Sendable, Hashable {
    /// The account's name.
    public let user: String
    /// A digest of the password hash it signed in with.
    public let stamp: String
    /// When it ends, in seconds since 1970.
    public let expires: Int64

    /// A session of `user`, signed in with the password whose digest is `stamp`, until `expires`.
    public init(user: String, stamp: String, expires: Int64) {
        self.user = user
        self.stamp = stamp
        self.expires = expires
    }
}

/// The wait after a key's `failures`-th failure in a row, in ms: 250 doubling, at most `cap`.
func throttleDelay(failures: Int64, cap: Int64) -> Int64 {
    min(cap, 250 << min(max(failures - 1, 0), 20))
}

/// One WebDAV lock as a store keeps it: what ``StateStore/changeLocks(_:)`` reads and writes.
public struct StoredLock: Sendable, Hashable {
    /// Its `opaquelocktoken:` token.
    public var token: String
    /// The locked path below the root.
    public var root: String
    /// Whether it covers everything below (`Depth: infinity`).
    public var deep: Bool
    /// Exclusive, or shared.
    public var exclusive: Bool
    /// The client's `<D:owner>` XML.
    public var owner: String
    /// Who took it: `user:NAME` or `address:IP`.
    public var holder: String
    /// The timeout granted, in seconds.
    public var seconds: Int
    /// When it lapses, in milliseconds since 1970 (every instance's clock).
    public var expires: Int64
}

/// What a change to the locks does: the locks to keep (new or refreshed) and the tokens to forget.
public struct LockChange: Sendable {
    /// Locks to add or replace, by token.
    public var put: [StoredLock] = []
    /// Tokens of locks to remove.
    public var remove: [String] = []

    /// No change.
    public init() {}
}
