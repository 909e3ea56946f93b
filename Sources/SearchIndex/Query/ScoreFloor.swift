import HeapModule
import Synchronization

/// The lowest score a hit may have and still be among the best `limit`, for the halves of a
/// search read on two threads at once: every hit either half takes is offered here too, so
/// once `limit` of them score at least some score, both halves pass by what scores less. Each
/// half's own best hits alone would set a lower floor: half the good names are in the other.
final class ScoreFloor: Sendable {
    private let limit: Int
    /// The best `limit` scores offered, the lowest on top.
    private let best = Mutex(Heap<Int>())
    private let score = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The floor now: the lowest of the best `limit` scores offered, 0 until that many were.
    var current: Int { score.load(ordering: .relaxed) }

    /// Counts a hit scoring `found` that one half took.
    func offer(_ found: Int) {
        guard found > current else { return }
        best.withLock { heap in
            if heap.count < limit {
                heap.insert(found)
            } else if let lowest = heap.min, found > lowest {
                heap.replaceMin(with: found)
            }
            if heap.count == limit, let lowest = heap.min { score.store(lowest, ordering: .relaxed) }
        }
    }
}
