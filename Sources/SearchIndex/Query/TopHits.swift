/// The best `limit` hits seen so far, without sorting everything that matched: a common query
/// matches thousands of names and keeps fifty. Hits gather in a buffer of four times the limit;
/// when it fills it is sorted and cut back to the limit, which raises ``minimum``, the score a
/// later hit needs to be looked at at all.
struct TopHits {
    struct Candidate: Sendable {
        let score: Int
        /// Breaks ties before depth: the modification time when searching by filters alone.
        let secondary: Int64
        let record: FolderRecord
        let index: Int
        /// The first eight bytes of the folded name, big-endian, zeros after a shorter name (no
        /// name holds a zero byte): most ties by name are settled on it without reading a name.
        let key: UInt64

        /// A hit whose folded name, `name`, is at hand.
        init(score: Int, secondary: Int64, record: FolderRecord, index: Int, name: UnsafeBufferPointer<UInt8>)
        {
            self.score = score
            self.secondary = secondary
            self.record = record
            self.index = index
            key = Self.key(of: name)
        }

        /// The first eight bytes of `name`, big-endian, zeros after a shorter one.
        static func key(of name: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var key: UInt64 = 0
            for position in 0..<8 { key = key << 8 | UInt64(position < name.count ? name[position] : 0) }
            return key
        }

        init(score: Int, secondary: Int64, record: FolderRecord, index: Int) {
            self = record.withFoldedName(at: index) {
                Candidate(score: score, secondary: secondary, record: record, index: index, name: $0)
            }
        }
    }

    private var items: [Candidate] = []
    private let limit: Int
    /// The lowest score that could still enter (0 until the buffer was first cut back).
    private(set) var minimum = 0
    /// The greatest depth at which a hit scoring just ``minimum`` could still enter.
    private var minimumDepth = Int.max
    /// The last hit kept at the latest cut: a hit that does not precede it can never enter.
    private var cutoff: Candidate?
    /// How many times the hits were cut back (the cut-off changes only then).
    private(set) var cuts = 0

    init(limit: Int) {
        self.limit = max(1, limit)
        items.reserveCapacity(self.limit * 4)
    }

    /// Whether a hit with this score, in a folder this deep, could still enter (a tie with the
    /// last kept hit is broken by depth, then by name).
    @inline(__always)
    func mayTake(score: Int, depth: Int) -> Bool {
        score > minimum || (score == minimum && depth <= minimumDepth)
    }

    mutating func offer(_ candidate: Candidate) {
        // A tie with the cut-off on score and depth is settled here, by name, rather than by a
        // sort later: a common substring ties thousands of names at one score.
        if let cutoff, candidate.score == cutoff.score, !Self.precedes(candidate, cutoff) { return }
        items.append(candidate)
        if items.count >= limit * 4 { cut() }
    }

    /// The score of the last of the best `limit` hits so far; `nil` while fewer were offered.
    /// Cuts the hits back first, so that ``minimum`` is that score from then on.
    mutating func lowestKept() -> Int? {
        guard items.count >= limit else { return nil }
        cut()
        return minimum
    }

    /// Sorts the hits, keeps the best `limit` and raises ``minimum`` to the last one's score.
    private mutating func cut() {
        items.sort(by: Self.precedes)
        items.removeLast(items.count - limit)
        minimum = items[limit - 1].score
        minimumDepth = items[limit - 1].record.depth
        cutoff = items[limit - 1]
        cuts += 1
    }

    /// Whether a name scoring `score` in a folder `depth` deep whose folded bytes are `name`
    /// ties the last kept hit on score and depth and comes after it by folded name: then it
    /// cannot enter, nor can any name of that score and depth after it in the order of folded
    /// bytes, until the next cut.
    func follows(score: Int, depth: Int, folded name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let cutoff, cutoff.score == score, cutoff.secondary == 0, cutoff.record.depth == depth else {
            return false
        }
        let key = Candidate.key(of: name)
        if key != cutoff.key { return cutoff.key < key }
        return cutoff.record.withFoldedName(at: cutoff.index) { last in
            last.lexicographicallyPrecedes(name)
        }
    }

    /// Best first.
    func sorted() -> [Candidate] { Array(items.sorted(by: Self.precedes).prefix(limit)) }

    /// Better score, then newer (by filters alone), then shallower, then by name ignoring case
    /// and accents (the folded bytes, as the names in order are sorted), then by name as
    /// written, then by folder.
    static func precedes(_ left: Candidate, _ right: Candidate) -> Bool {
        if left.score != right.score { return left.score > right.score }
        if left.secondary != right.secondary { return left.secondary > right.secondary }
        if left.record.depth != right.record.depth { return left.record.depth < right.record.depth }
        if left.key != right.key { return left.key < right.key }
        let folded = left.record.withFoldedName(at: left.index) { left in
            right.record.withFoldedName(at: right.index) { right -> Bool? in
                left.elementsEqual(right) ? nil : left.lexicographicallyPrecedes(right)
            }
        }
        if let folded { return folded }
        let order = left.record.entries.compareName(at: left.index, to: right.record.entries, at: right.index)
        if order != 0 { return order < 0 }
        return left.record.path < right.record.path
    }
}
