import Synchronization

/// Listings and views a client has read, each kept with the `ETag` the server gave it, so that
/// reading one again sends `If-None-Match` and a `304 Not Modified` (a few hundred bytes) reuses
/// what is kept instead of sending and decoding the whole body again.
///
/// Bounded twice: at most ``capacity`` answers, and at most ``byteLimit`` bytes of the bodies
/// they were decoded from (a fair measure of what the decoded values hold); the least recently
/// used go first. An answer larger than a quarter of ``byteLimit`` is never kept: one huge
/// folder must not push out everything else. Copies of an ``APIClient`` share their cache.
public final class ConditionalReadCache: Sendable {
    private struct Entry: Sendable {
        var etag: String
        var value: any Sendable
        var bytes: Int
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        /// Keys, least recently used first.
        var order: [String] = []
        var bytes = 0
    }

    /// The most answers kept.
    public let capacity: Int
    /// The most body bytes the kept answers may stand for.
    public let byteLimit: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` answers standing for at most `byteLimit` bytes: by
    /// default 64 answers and 16 MiB, enough for the folders a person goes back and forth
    /// between, and small beside a phone's memory.
    public init(capacity: Int = 64, byteLimit: Int = 16 << 20) {
        self.capacity = max(0, capacity)
        self.byteLimit = max(0, byteLimit)
    }

    /// How many answers are kept.
    public var count: Int { state.withLock { $0.entries.count } }

    /// The tag and the value kept for `key`, if one of this type is.
    func entry<Value: Sendable>(for key: String, as type: Value.Type) -> (etag: String, value: Value)? {
        state.withLock { state in
            guard let entry = state.entries[key], let value = entry.value as? Value else { return nil }
            state.order.removeAll { $0 == key }
            state.order.append(key)
            return (entry.etag, value)
        }
    }

    /// Keeps `value`, decoded from `bytes` bytes, under `key` with its `etag`.
    func store(_ value: some Sendable, etag: String, bytes: Int, for key: String) {
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.bytes
                state.order.removeAll { $0 == key }
            }
            guard capacity > 0, bytes <= byteLimit / 4 else { return }
            state.entries[key] = Entry(etag: etag, value: value, bytes: bytes)
            state.order.append(key)
            state.bytes += bytes
            while state.entries.count > capacity || state.bytes > byteLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                if let gone = state.entries.removeValue(forKey: oldest) { state.bytes -= gone.bytes }
            }
        }
    }

    /// Forgets `key`.
    func remove(_ key: String) {
        state.withLock { state in
            guard let old = state.entries.removeValue(forKey: key) else { return }
            state.bytes -= old.bytes
            state.order.removeAll { $0 == key }
        }
    }

    /// Forgets everything kept.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
