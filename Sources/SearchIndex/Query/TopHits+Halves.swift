import Dispatch
import Synchronization

extension TopHits {
    /// The best `limit` hits of two halves read at once, one on this thread and one on another:
    /// `read` gathers each half's own best hits, best first, and the best of both are one
    /// reading's, in its order (the order is total).
    static func best<Part: Sendable>(
        of halves: (Part, Part), limit: Int, read: @Sendable (Part) -> [Candidate]
    ) -> [Candidate] {
        let parts = [halves.0, halves.1]
        let found = Mutex<[[Candidate]]>([[], []])
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let kept = read(parts[part])
            found.withLock { $0[part] = kept }
        }
        return best(of: found.withLock { $0[0] + $0[1] }, count: max(1, limit))
    }
}
