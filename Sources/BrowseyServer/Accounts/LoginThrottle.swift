import Synchronization

/// Slows failed logins down, per address and per user, without ever locking anyone out for good.
///
/// Each failure doubles the wait before the next try from that address (from a quarter of a
/// second up to ``addressCap``) and for that user name from anywhere (up to ``userCap``, kept
/// short so that someone guessing at a user's password from elsewhere delays the real user by
/// seconds at most, never locks them out). A try before its time is answered 429 without the
/// password being hashed, so the slow hash is no lever either; a success clears both counts.
/// Counts fade: a wait that has long passed starts over.
public final class LoginThrottle: Sendable {
    /// The longest wait per address.
    public let addressCap: Duration
    /// The longest wait per user name.
    public let userCap: Duration

    private struct Entry {
        var failures = 0
        var next: Duration = .zero
    }

    private struct State {
        var addresses: [String: Entry] = [:]
        var users: [String: Entry] = [:]
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Duration

    /// A throttle on `now`'s clock (time since any fixed start, never going back by much).
    public init(
        addressCap: Duration = .seconds(60), userCap: Duration = .seconds(2),
        now: @escaping @Sendable () -> Duration = LoginThrottle.monotonic
    ) {
        self.addressCap = addressCap
        self.userCap = userCap
        self.now = now
    }

    /// Time since the process began, never going back.
    public static let monotonic: @Sendable () -> Duration = {
        let start = Start.instant
        return ContinuousClock.now - start
    }

    private enum Start {
        static let instant = ContinuousClock.now
    }

    /// How long `address` must wait before trying `user` again; `nil` when it may try now.
    public func wait(address: String, user: String) -> Duration? {
        let now = now()
        return state.withLock { state in
            let until = max(state.addresses[address]?.next ?? .zero, state.users[user]?.next ?? .zero)
            return until > now ? until - now : nil
        }
    }

    /// Records a failed try.
    public func failed(address: String, user: String) {
        let now = now()
        state.withLock { state in
            Self.fail(&state.addresses[address, default: Entry()], now: now, cap: addressCap)
            Self.fail(&state.users[user, default: Entry()], now: now, cap: userCap)
            if state.addresses.count > 100_000 {
                state.addresses = state.addresses.filter { $0.value.next > now }
            }
            if state.users.count > 100_000 { state.users = state.users.filter { $0.value.next > now } }
        }
    }

    /// Records a success: both counts start over.
    public func succeeded(address: String, user: String) {
        state.withLock { state in
            state.addresses[address] = nil
            state.users[user] = nil
        }
    }

    private static func fail(_ entry: inout Entry, now: Duration, cap: Duration) {
        // Quiet for four times the cap: the count starts over.
        if entry.failures > 0, now - entry.next > cap * 4 { entry.failures = 0 }
        entry.failures += 1
        let delay = min(cap, .milliseconds(250) * (1 << min(entry.failures - 1, 20)))
        entry.next = now + delay
    }
}
