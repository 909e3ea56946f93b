import Synchronization

/// Waits for the first of: an answer, an error, a timeout, or the task's cancellation; whichever
/// comes first wins and the rest are ignored.
final class FirstAnswer<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var outcome: Result<Value, any Error>?
    }

    private let state = Mutex(State())

    /// Settles the wait with `outcome`, unless it is already settled.
    func settle(_ outcome: Result<Value, any Error>) {
        let continuation: CheckedContinuation<Value, any Error>? = state.withLock { state in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: outcome)
    }

    /// The outcome, waiting at most `timeout` (then `timedOut` with `message`).
    func value(timeout: Duration, message: String) async throws(ServiceDiscoveryError) -> Value {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.settle(.failure(ServiceDiscoveryError(.timedOut, message)))
        }
        defer { timer.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let settled: Result<Value, any Error>? = state.withLock { state in
                        if state.outcome == nil { state.continuation = continuation }
                        return state.outcome
                    }
                    if let settled { continuation.resume(with: settled) }
                }
            } onCancel: {
                settle(.failure(ServiceDiscoveryError(.cancelled, "the wait was cancelled")))
            }
        } catch let error as ServiceDiscoveryError {
            throw error
        } catch {
            throw ServiceDiscoveryError(.failed, "\(error)", cause: error)
        }
    }
}
