import Synchronization

/// One piece of work per key at a time: callers asking for a key already being worked on wait
/// for that work instead of starting their own. When every caller waiting for a piece of work
/// has been cancelled, the work is cancelled too (before it starts, it never starts).
final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Flight {
        let id: UInt64
        let task: Task<Value, any Error>
        var waiters: Int
    }

    /// One caller's place in a flight: it leaves once, by finishing or by being cancelled.
    private final class Seat: Sendable {
        let left = Atomic(false)
        func leave() -> Bool { !left.exchange(true, ordering: .acquiringAndReleasing) }
    }

    private let flights = Mutex<(next: UInt64, byKey: [Key: Flight])>((0, [:]))

    /// An empty set of flights.
    init() {}

    /// The value for `key`: from the flight under way, or from `work` started now.
    func value(for key: Key, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let (id, task) = flights.withLock { state in
            if var flight = state.byKey[key] {
                flight.waiters += 1
                state.byKey[key] = flight
                return (flight.id, flight.task)
            }
            state.next += 1
            let task = Task { try await work() }
            state.byKey[key] = Flight(id: state.next, task: task, waiters: 1)
            return (state.next, task)
        }
        let seat = Seat()
        return try await withTaskCancellationHandler {
            defer { if seat.leave() { leave(key, id, cancelling: false) } }
            return try await task.value
        } onCancel: {
            if seat.leave() { leave(key, id, cancelling: true) }
        }
    }

    /// How many flights are under way.
    var count: Int { flights.withLock { $0.byKey.count } }

    private func leave(_ key: Key, _ id: UInt64, cancelling: Bool) {
        flights.withLock { state in
            guard var flight = state.byKey[key], flight.id == id else { return }
            flight.waiters -= 1
            if flight.waiters > 0 {
                state.byKey[key] = flight
                return
            }
            state.byKey[key] = nil
            if cancelling { flight.task.cancel() }
        }
    }
}
