import Synchronization

/// The share links, kept in the ``StateStore`` so that they survive a restart and open at every
/// instance on one database.
///
/// A link's requests look its share up each time, so a share found is remembered for
/// ``freshness`` (1 s): a revoke at another instance holds here within that.
public final class ShareStore: Sendable {
    /// How long a share found in the store is taken as it was.
    public let freshness: Duration

    private struct Seen {
        let share: Share
        let at: ContinuousClock.Instant
    }

    private let store: any StateStore
    private let seen = Mutex<[String: Seen]>([:])
    /// Share passwords already checked, by a digest of id and password: a share's page and its
    /// downloads ask again and again, and scrypt is slow on purpose.
    private let unlocked = Mutex<Set<String>>([])

    /// Shares kept in `store`.
    public init(store: any StateStore, freshness: Duration = .seconds(1)) {
        self.store = store
        self.freshness = freshness
    }

    /// Makes and keeps a share; a share the store refuses is not made (a link that would
    /// vanish at the next restart is worse than an error now).
    func make(
        owner: String, path: String, upload: Bool, password: PasswordHash?, expires: Int64?, now: Int64
    ) async throws(StateStoreError) -> Share {
        let share = Share(
            id: Share.newID(), owner: owner, path: path, upload: upload, password: password, expires: expires,
            created: now, downloads: 0)
        try await store.insertShare(share)
        return share
    }

    /// The share of `id`, expired or not.
    func share(_ id: some StringProtocol) async throws(StateStoreError) -> Share? {
        guard Share.isID(id) else { return nil }
        let id = String(id)
        if let recent = seen.withLock({ $0[id] }), recent.at.duration(to: .now) < freshness {
            return recent.share
        }
        let share = try await store.share(id: id)
        seen.withLock { seen in
            if seen.count >= 10_000 { seen.removeAll() }
            seen[id] = share.map { Seen(share: $0, at: .now) }
        }
        return share
    }

    /// Every share, oldest first.
    func all() async throws(StateStoreError) -> [Share] { try await store.shares() }

    /// Revokes a share: its link answers 404 from now on (at other instances within a second).
    func revoke(_ id: String) async throws(StateStoreError) {
        try await store.deleteShare(id: id)
        seen.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Counts one download; a count that cannot be kept is logged by the store, and the
    /// download goes on.
    func countDownload(_ id: String) async {
        try? await store.countDownload(share: id)
    }

    /// Whether `password` opens `share`, by its hash (ask ``remembers(_:_:)`` first: that costs
    /// no hash); a right one is remembered (as a digest) so that the next request does not hash
    /// again.
    func unlocks(_ share: Share, with password: String) -> Bool {
        guard let hash = share.password else { return true }
        guard hash.verify(password) else { return false }
        unlocked.withLock { _ = $0.insert(Self.unlockKey(share, password)) }
        return true
    }

    /// Whether `password` opened `share` before (no hash to compute: the next request of a page
    /// that opened is never throttled).
    func remembers(_ share: Share, _ password: String) -> Bool {
        share.password == nil || unlocked.withLock { $0.contains(Self.unlockKey(share, password)) }
    }

    private static func unlockKey(_ share: Share, _ password: String) -> String {
        Hex.encode(SHA256Digest.of(share.id + "\u{0}" + password))
    }
}
