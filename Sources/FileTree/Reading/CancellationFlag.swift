import Synchronization

/// Set once when the task waiting for a background read is cancelled; the walk checks it
/// between folders.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
