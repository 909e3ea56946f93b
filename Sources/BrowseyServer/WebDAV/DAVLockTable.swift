#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's WebDAV locks, kept in the ``StateStore``: with `--database`, a lock taken
/// through one instance holds at all of them. Lapsed locks are dropped as they are met.
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

    private let store: any StateStore
    let limits: Limits

    /// A table kept in `store` that grants at most `limits`.
    init(store: any StateStore, limits: Limits = Limits()) {
        self.store = store
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
        /// The store cannot be reached now.
        case unavailable(StateStoreError)
    }

    /// Every live lock, as they stand now: what a PROPFIND answers from and a write is checked
    /// against.
    func snapshot() async throws(StateStoreError) -> DAVLocks {
        let now = Self.now()
        return DAVLocks(all: try await store.locks().map(DAVLock.init).filter { $0.expires > now })
    }

    /// Grants `lock` unless a lock in the way conflicts: an exclusive lock conflicts with any
    /// other on the same resources, shared locks only with exclusive ones.
    func grant(_ lock: DAVLock) async throws(Refusal) {
        let limits = limits
        let refusal: Refusal?
        do {
            refusal = try await change { live in
                guard live.count < limits.total else { return (.full, LockChange()) }
                var held = 0
                for other in live {
                    let overlaps =
                        other.covers(lock.root)
                        || (lock.coversDescendants && DAVLock.isBelow(other.root, lock.root))
                    if overlaps && (other.isExclusive || lock.isExclusive) {
                        return (.conflict(other), LockChange())
                    }
                    if other.holder == lock.holder { held += 1 }
                }
                guard held < limits.perHolder else { return (.tooManyForHolder, LockChange()) }
                var change = LockChange()
                change.put = [lock.record]
                return (nil, change)
            }
        } catch {
            throw .unavailable(error)
        }
        if let refusal { throw refusal }
    }

    /// Gives the lock `token` on `path` a new timeout.
    func refresh(token: String, on path: String, seconds: Int) async throws(Refusal) -> DAVLock {
        let refreshed: DAVLock?
        do {
            refreshed = try await change { live in
                guard var lock = live.first(where: { $0.token == token }), lock.covers(path) else {
                    return (nil, LockChange())
                }
                lock.seconds = seconds
                lock.expires = Self.now() + Int64(seconds) * 1000
                var change = LockChange()
                change.put = [lock.record]
                return (lock, change)
            }
        } catch {
            throw .unavailable(error)
        }
        guard let refreshed else { throw .unknownToken }
        return refreshed
    }

    /// Removes the lock `token` if it applies to `path`.
    func release(token: String, on path: String) async throws(Refusal) {
        let removed: Bool
        do {
            removed = try await change { live in
                guard let lock = live.first(where: { $0.token == token }), lock.covers(path) else {
                    return (false, LockChange())
                }
                var change = LockChange()
                change.remove = [lock.token]
                return (true, change)
            }
        } catch {
            throw .unavailable(error)
        }
        if !removed { throw .unknownToken }
    }

    /// Forgets every lock on `path` and below it (the resources are gone or moved away); a
    /// store that cannot be reached leaves them to lapse.
    func removeAll(at path: String) async {
        _ = try? await change { live in
            var change = LockChange()
            change.remove = live.filter { $0.root == path || DAVLock.isBelow($0.root, path) }.map(\.token)
            return ((), change)
        }
    }

    /// One change over the live locks, lapsed ones forgotten on the way.
    private func change<Result: Sendable>(
        _ body: @escaping @Sendable ([DAVLock]) -> (Result, LockChange)
    ) async throws(StateStoreError) -> Result {
        try await store.changeLocks { records in
            let now = Self.now()
            let locks = records.map(DAVLock.init)
            let live = locks.filter { $0.expires > now }
            var (result, change) = body(live)
            change.remove += locks.filter { $0.expires <= now }.map(\.token)
            return (result, change)
        }
    }

    /// Milliseconds since 1970: the clock every instance shares.
    static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

/// The live locks at one moment, asked without waiting: what one request is checked against.
struct DAVLocks: Sendable {
    /// Every live lock.
    let all: [DAVLock]

    /// The live locks that apply to `path` (its own, and deep locks above it).
    func covering(_ path: String) -> [DAVLock] {
        all.filter { $0.covers(path) }
    }

    /// The live locks a write to `path` must hold a token for: those covering it, a lock on
    /// its folder itself when the write adds or removes a name there, and, when the write
    /// removes or replaces a whole tree, every lock below it.
    func protecting(_ path: String, changesMembership: Bool, includesDescendants: Bool) -> [DAVLock] {
        let parent = Paths.parent(of: path)
        return all.filter {
            $0.covers(path) || (changesMembership && path != "/" && $0.root == parent)
                || (includesDescendants && DAVLock.isBelow($0.root, path))
        }
    }

    /// Whether the lock with `token` applies to `path`.
    func holds(token: String, on path: String) -> Bool {
        all.contains { $0.token == token && $0.covers(path) }
    }
}
