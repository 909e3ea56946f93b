/// The best `limit` hits seen so far, without sorting everything that matched: a common query
/// matches thousands of names and keeps fifty.
struct TopHits {
    struct Candidate {
        let score: Int
        /// Breaks ties before depth: the modification time when searching by filters alone.
        let secondary: Int64
        let record: FolderRecord
        let index: Int
    }

    private(set) var items: [Candidate] = []
    private let limit: Int
    private var worst: Int?

    init(limit: Int) {
        self.limit = max(1, limit)
        items.reserveCapacity(self.limit)
    }

    /// The lowest score that could still enter (0 until the list is full).
    private(set) var minimum = 0

    /// Whether a hit with this score could still enter.
    func mayTake(score: Int) -> Bool { score >= minimum }

    mutating func offer(_ candidate: Candidate) {
        if items.count < limit {
            items.append(candidate)
            worst = nil
            if items.count == limit { findWorst() }
            return
        }
        if worst == nil { findWorst() }
        guard let worst, Self.precedes(candidate, items[worst]) else { return }
        items[worst] = candidate
        findWorst()
    }

    private mutating func findWorst() {
        var found = 0
        for index in items.indices.dropFirst() where Self.precedes(items[found], items[index]) { found = index }
        worst = found
        minimum = items[found].score
    }

    /// Best first.
    func sorted() -> [Candidate] { items.sorted(by: Self.precedes) }

    /// Better score, then newer (by filters alone), then shallower, then by name and folder.
    static func precedes(_ left: Candidate, _ right: Candidate) -> Bool {
        if left.score != right.score { return left.score > right.score }
        if left.secondary != right.secondary { return left.secondary > right.secondary }
        if left.record.depth != right.record.depth { return left.record.depth < right.record.depth }
        let leftName = left.record.entries[left.index].name
        let rightName = right.record.entries[right.index].name
        if leftName != rightName { return leftName < rightName }
        return left.record.path < right.record.path
    }
}
