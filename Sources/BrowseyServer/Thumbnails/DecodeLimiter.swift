import Synchronization

/// At most a few decodes at once (one per core): the rest wait their turn in order, and a
/// waiter whose request was abandoned leaves the queue without ever decoding.
final class DecodeLimiter: Sendable {
    private struct State {
        var available: Int
        var next: UInt64 = 0
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        /// Waiters that asked but have not yet been granted, queued or refused.
        var arriving: Set<UInt64> = []
        /// Arriving waiters cancelled before they joined the queue.
        var cancelled: Set<UInt64> = []
    }

    private let state: Mutex<State>
    /// How many decodes may run at once.
    let permits: Int

    /// A limiter of `permits` at once.
    init(permits: Int) {
        self.permits = max(1, permits)
        state = Mutex(State(available: max(1, permits)))
    }

    /// Waits for a turn; throws `CancellationError` when the task is cancelled first.
    func acquire() async throws {
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            state.arriving.insert(state.next)
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    state.arriving.remove(id)
                    if state.cancelled.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if state.available > 0 {
                        state.available -= 1
                        continuation.resume()
                    } else {
                        state.waiting.append((id, continuation))
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                    state.waiting.remove(at: index).continuation.resume(throwing: CancellationError())
                } else if state.arriving.contains(id) {
                    state.cancelled.insert(id)
                }
                // Otherwise the turn was granted already: the caller releases it.
            }
        }
    }

    /// Whether no decode is running or waiting (every turn is free).
    var isIdle: Bool {
        state.withLock { $0.available == permits && $0.waiting.isEmpty && $0.arriving.isEmpty }
    }

    /// Gives a turn back: to the first waiter, else to the pool.
    func release() {
        state.withLock { state in
            if state.waiting.isEmpty {
                state.available += 1
            } else {
                state.waiting.removeFirst().continuation.resume()
            }
        }
    }
}
