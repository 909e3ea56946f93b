import Synchronization

/// The share links, in memory and (when the server keeps a data folder) in SQLite, so that
/// they survive a restart.
public final class ShareStore: Sendable {
    private let shares = Mutex<[String: Share]>([:])
    private let persistence: AccountsDatabase?
    /// Share passwords already checked, by a digest of id and password: a share's page and its
    /// downloads ask again and again, and scrypt is slow on purpose.
    private let unlocked = Mutex<Set<String>>([])

    init(database: AccountsDatabase?) {
        persistence = database
        let loaded = database?.shares() ?? []
        shares.withLock { shares in for share in loaded { shares[share.id] = share } }
    }

    /// Makes and keeps a share; a share the database refuses is not made (a link that would
    /// vanish at the next restart is worse than an error now).
    func make(
        owner: String, path: String, upload: Bool, password: PasswordHash?, expires: Int64?, now: Int64
    ) throws(AccountsStorageError) -> Share {
        let share = Share(
            id: Share.newID(), owner: owner, path: path, upload: upload, password: password, expires: expires,
            created: now, downloads: 0)
        try persistence?.save(share)
        shares.withLock { $0[share.id] = share }
        return share
    }

    /// The share of `id`, expired or not.
    func share(_ id: some StringProtocol) -> Share? {
        guard Share.isID(id) else { return nil }
        return shares.withLock { $0[String(id)] }
    }

    /// Every share, oldest first.
    func all() -> [Share] {
        shares.withLock { Array($0.values) }.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    /// Revokes a share: its link answers 404 from now on. When the database refuses, the share
    /// stays, in memory too, so that what the owner sees is what a restart would bring back.
    func revoke(_ id: String) throws(AccountsStorageError) {
        try persistence?.delete(share: id)
        shares.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Counts one download.
    func countDownload(_ id: String) {
        guard
            let share = shares.withLock({ shares -> Share? in
                shares[id]?.downloads += 1
                return shares[id]
            })
        else { return }
        // A count that cannot be kept is logged by the database; the download goes on.
        try? persistence?.save(share)
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
