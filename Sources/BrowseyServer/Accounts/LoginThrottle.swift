/// Slows failed logins down, per address and per user, without ever locking anyone out for good.
///
/// Each failure doubles the wait before the next try from that address (from a quarter of a
/// second up to ``addressCap``) and for that user name from anywhere (up to ``userCap``, kept
/// short so that someone guessing at a user's password from elsewhere delays the real user by
/// seconds at most, never locks them out). A try before its time is answered 429 without the
/// password being hashed, so the slow hash is no lever either; a success clears both counts.
/// Counts fade: a wait that has long passed starts over.
///
/// The counts live in the ``StateStore``, so failures at one instance slow the next try at any
/// other; `scope` keeps logins and link passwords apart there.
public final class LoginThrottle: Sendable {
    /// The longest wait per address.
    public let addressCap: Duration
    /// The longest wait per user name.
    public let userCap: Duration

    private let store: any StateStore
    private let scope: String
    private let now: @Sendable () -> Duration

    /// A throttle keeping its counts in `store` under `scope`, on `now`'s clock (the wall clock,
    /// which every instance shares).
    public init(
        store: any StateStore, scope: String, addressCap: Duration = .seconds(60),
        userCap: Duration = .seconds(2),
        now: @escaping @Sendable () -> Duration
    ) {
        self.store = store
        self.scope = scope
        self.addressCap = addressCap
        self.userCap = userCap
        self.now = now
    }

    /// How long `address` must wait before trying `user` again; `nil` when it may try now.
    public func wait(address: String, user: String) async throws(StateStoreError) -> Duration? {
        let now = Self.milliseconds(now())
        let until = try await store.throttledUntil([key("a", address), key("u", user)])
        return until > now ? .milliseconds(until - now) : nil
    }

    /// Records a failed try.
    public func failed(address: String, user: String) async throws(StateStoreError) {
        let now = Self.milliseconds(now())
        try await store.recordFailure(key("a", address), now: now, cap: Self.milliseconds(addressCap))
        try await store.recordFailure(key("u", user), now: now, cap: Self.milliseconds(userCap))
    }

    /// Records a success: both counts start over.
    public func succeeded(address: String, user: String) async throws(StateStoreError) {
        try await store.clearFailures([key("a", address), key("u", user)])
    }

    private func key(_ kind: String, _ name: String) -> String { "\(scope) \(kind) \(name)" }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }
}
