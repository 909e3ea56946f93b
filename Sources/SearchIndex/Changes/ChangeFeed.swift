import Synchronization

/// Hands each change to every subscriber, and keeps the latest few thousand so that a client
/// that reconnects with the id of the last event it saw gets what it missed.
///
/// A subscriber's buffer is bounded: one that does not keep up is dropped (its stream ends),
/// never waited for; it reconnects and resumes from the kept events, or is told to start over.
public final class ChangeFeed: Sendable {
    /// A change with its id.
    public struct Event: Sendable {
        /// The event's id, `<run>.<sequence>`: increasing within one run of the server.
        public let id: String
        let sequence: UInt64
        /// The change.
        public let change: TreeChange
    }

    /// What a subscriber receives.
    public enum Item: Sendable {
        /// A change.
        case event(Event)
        /// What was missed cannot be replayed (too old, or from another run): reload.
        case reset
        /// Nothing happened for a while (sent by whoever keeps the connection alive).
        case heartbeat
    }

    /// A subscription: its items until the subscriber is dropped or cancels.
    public struct Subscription: Sendable {
        /// The items.
        public let items: AsyncStream<Item>
        /// Asks for a heartbeat in the stream (ignored when the buffer is full).
        public let heartbeat: @Sendable () -> Void
    }

    private struct State {
        var sequence: UInt64 = 0
        var recent: [Event] = []
        var subscribers: [Int: AsyncStream<Item>.Continuation] = [:]
        var nextSubscriber = 0
    }

    /// A random name of this run, the first half of every id.
    public let run: String
    private let capacity: Int
    private let state = Mutex(State())

    /// A feed keeping the latest `capacity` events.
    public init(capacity: Int = 4096) {
        self.capacity = capacity
        var generator = SystemRandomNumberGenerator()
        run = String(generator.next() as UInt32, radix: 36)
    }

    /// How many subscribers there are now.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Publishes changes to every subscriber.
    public func publish(_ changes: [TreeChange]) {
        guard !changes.isEmpty else { return }
        // Finished outside the lock: finishing runs the subscriber's termination handler.
        let dropped = state.withLock { state -> [AsyncStream<Item>.Continuation] in
            var dropped: [AsyncStream<Item>.Continuation] = []
            for change in changes {
                state.sequence += 1
                let event = Event(id: "\(run).\(state.sequence)", sequence: state.sequence, change: change)
                state.recent.append(event)
                for (key, continuation) in state.subscribers {
                    if case .dropped = continuation.yield(.event(event)) {
                        state.subscribers[key] = nil
                        dropped.append(continuation)
                    }
                }
            }
            if state.recent.count > capacity + capacity / 4 {
                state.recent.removeFirst(state.recent.count - capacity)
            }
            return dropped
        }
        for continuation in dropped { continuation.finish() }
    }

    /// Subscribes; with `lastEventID` (from `Last-Event-ID`) the events after it come first, or
    /// a ``Item/reset`` when they are no longer kept. At most `buffer` items wait for a slow
    /// subscriber before it is dropped.
    public func subscribe(lastEventID: String? = nil, buffer: Int = 1024) -> Subscription {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Item.self, bufferingPolicy: .bufferingOldest(buffer))
        let key = state.withLock { state -> Int in
            if let lastEventID {
                let parts = lastEventID.split(separator: ".")
                let sequence = parts.count == 2 && parts[0] == run ? UInt64(parts[1]) : nil
                let oldest = state.recent.first?.sequence ?? state.sequence + 1
                if let sequence, sequence <= state.sequence, sequence + 1 >= oldest {
                    for event in state.recent where event.sequence > sequence {
                        continuation.yield(.event(event))
                    }
                } else {
                    continuation.yield(.reset)
                }
            }
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = continuation
            return key
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        let heartbeat: @Sendable () -> Void = { continuation.yield(.heartbeat) }
        return Subscription(items: stream, heartbeat: heartbeat)
    }
}
