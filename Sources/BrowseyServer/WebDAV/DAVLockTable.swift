import Synchronization

/// The server's WebDAV locks, kept in memory: a restart forgets them (clients take a lost lock
/// as a lock that timed out and lock again). Expired locks are dropped as they are met.
///
/// Bounded, since anyone who may write may lock: an owner element of at most
/// ``maximumOwnerBytes``, a timeout of at most an hour (a client refreshes a lock it still
/// needs), at most ``Limits/perHolder`` locks per user (or, for someone not signed in, per
/// address), and ``Limits/total`` in all. So the table, and the `lockdiscovery` a PROPFIND
/// answers from it, hold at most a few megabytes whoever asks.
final class DAVLockTable: Sendable {
    /// How many locks may be held.
    struct Limits: Sendable {
        /// By one user, or one address for someone not signed in.
        var perHolder = 256
        /// By everyone together.
        var total = 4096
    }

    private let locks = Mutex<[String: DAVLock]>([:])
    let limits: Limits

    /// A table that grants at most `limits`.
    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The longest timeout granted; a client asking for more (or `Infinite`) gets this.
    static let maximumSeconds = 3600
    /// The timeout of a lock that asks for none.
    static let defaultSeconds = 3600
    /// The largest `<D:owner>` kept (its XML): a name, an address, a URL fit many times over.
    static let maximumOwnerBytes = 4096

    /// Why a lock was not granted.
    enum Refusal: Error {
        /// Another lock conflicts (423).
        case conflict(DAVLock)
        /// No lock with that token on that resource (412 for a refresh, 409 for an unlock).
        case unknownToken
        /// The lock's holder holds ``Limits/perHolder`` already.
        case tooManyForHolder
        /// The table holds ``Limits/total`` already.
        case full
    }

    /// Every live lock, as they stand now (what a PROPFIND answers from).
    func snapshot() -> [DAVLock] {
        live { _ in true }
    }

    /// The live locks that apply to `path` (its own, and deep locks above it).
    func locks(covering path: String) -> [DAVLock] {
        live { $0.covers(path) }
    }

    /// The live locks a write to `path` must hold a token for: those covering it, a lock on
    /// its folder itself when the write adds or removes a name there, and, when the write
    /// removes or replaces a whole tree, every lock below it.
    func locks(protecting path: String, changesMembership: Bool, includesDescendants: Bool) -> [DAVLock] {
        let parent = Paths.parent(of: path)
        return live {
            $0.covers(path) || (changesMembership && path != "/" && $0.root == parent)
                || (includesDescendants && DAVLock.isBelow($0.root, path))
        }
    }

    /// Whether the lock with `token` applies to `path`.
    func holds(token: String, on path: String) -> Bool {
        !live { $0.token == token && $0.covers(path) }.isEmpty
    }

    /// Grants `lock` unless a lock in the way conflicts: an exclusive lock conflicts with any
    /// other on the same resources, shared locks only with exclusive ones.
    func grant(_ lock: DAVLock) throws(Refusal) {
        let refusal: Refusal? = locks.withLock { table in
            Self.dropExpired(&table)
            guard table.count < limits.total else { return .full }
            var held = 0
            for other in table.values {
                let overlaps =
                    other.covers(lock.root)
                    || (lock.coversDescendants && DAVLock.isBelow(other.root, lock.root))
                if overlaps && (other.isExclusive || lock.isExclusive) { return .conflict(other) }
                if other.holder == lock.holder { held += 1 }
            }
            guard held < limits.perHolder else { return .tooManyForHolder }
            table[lock.token] = lock
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Gives the lock `token` on `path` a new timeout.
    func refresh(token: String, on path: String, seconds: Int) throws(Refusal) -> DAVLock {
        let refreshed: DAVLock? = locks.withLock { table in
            Self.dropExpired(&table)
            guard var lock = table[token], lock.covers(path) else { return nil }
            lock.seconds = seconds
            lock.expires = .now + .seconds(seconds)
            table[token] = lock
            return lock
        }
        guard let refreshed else { throw .unknownToken }
        return refreshed
    }

    /// Removes the lock `token` if it applies to `path`.
    func release(token: String, on path: String) throws(Refusal) {
        let removed = locks.withLock { table in
            guard let lock = table[token], lock.covers(path) else { return false }
            table[token] = nil
            return true
        }
        if !removed { throw .unknownToken }
    }

    /// Forgets every lock on `path` and below it (the resources are gone or moved away).
    func removeAll(at path: String) {
        locks.withLock { table in
            table = table.filter { $0.value.root != path && !DAVLock.isBelow($0.value.root, path) }
        }
    }

    private func live(_ matching: (DAVLock) -> Bool) -> [DAVLock] {
        locks.withLock { table in
            Self.dropExpired(&table)
            return table.values.filter(matching)
        }
    }

    private static func dropExpired(_ table: inout [String: DAVLock]) {
        let now = ContinuousClock.now
        if table.values.contains(where: { $0.expires <= now }) {
            table = table.filter { $0.value.expires > now }
        }
    }
}
