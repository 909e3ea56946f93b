/// The best `limit` hits seen so far, without sorting everything that matched: a common query
/// matches thousands of names and keeps fifty. Hits gather in a buffer of four times the limit;
/// when it fills it is sorted and cut back to the limit, which raises ``minimum``, the score a
/// later hit needs to be looked at at all.
struct TopHits {
    struct Candidate: Sendable {
        /// What orders hits before their names are read: plain numbers, compared without
        /// touching the folder's record (see ``TopHits/best(of:count:)``).
        struct Rank: Sendable, Equatable {
            let score: Int
            /// Breaks ties before depth: the modification time when searching by filters alone.
            let secondary: Int64
            /// How deep the hit's folder is.
            let depth: Int
            /// The first eight bytes of the folded name, big-endian, zeros after a shorter name
            /// (no name holds a zero byte): most ties by name are settled on it without reading
            /// a name.
            let key: UInt64
            /// The next eight bytes, alike: names that share a long start (`report 2`) tie on
            /// the first eight.
            let nextKey: UInt64

            /// Better score, then newer, then shallower, then by the first sixteen folded bytes.
            @inline(__always)
            func precedes(_ other: Rank) -> Bool {
                if score != other.score { return score > other.score }
                if secondary != other.secondary { return secondary > other.secondary }
                if depth != other.depth { return depth < other.depth }
                if key != other.key { return key < other.key }
                return nextKey < other.nextKey
            }
        }

        let rank: Rank
        let record: FolderRecord
        let index: Int

        var score: Int { rank.score }
        var secondary: Int64 { rank.secondary }
        var depth: Int { rank.depth }
        var key: UInt64 { rank.key }

        /// A hit whose folded name, `name`, is at hand.
        init(score: Int, secondary: Int64, record: FolderRecord, index: Int, name: UnsafeBufferPointer<UInt8>)
        {
            rank = Rank(
                score: score, secondary: secondary, depth: record.depth, key: Self.key(of: name),
                nextKey: Self.key(of: UnsafeBufferPointer(rebasing: name.dropFirst(8))))
            self.record = record
            self.index = index
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
        let kept = Self.best(of: items, count: limit)
        items.removeAll(keepingCapacity: true)
        items.append(contentsOf: kept)
        minimum = items[limit - 1].score
        minimumDepth = items[limit - 1].depth
        cutoff = items[limit - 1]
        cuts += 1
    }

    /// Whether a name scoring `score` in a folder `depth` deep whose folded bytes are `name`
    /// ties the last kept hit on score and depth and comes after it by folded name: then it
    /// cannot enter, nor can any name of that score and depth after it in the order of folded
    /// bytes, until the next cut.
    func follows(score: Int, depth: Int, folded name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let cutoff, cutoff.score == score, cutoff.secondary == 0, cutoff.depth == depth else {
            return false
        }
        let key = Candidate.key(of: name)
        if key != cutoff.key { return cutoff.key < key }
        return cutoff.record.withFoldedName(at: cutoff.index) { last in
            last.lexicographicallyPrecedes(name)
        }
    }

    /// Best first.
    func sorted() -> [Candidate] { Self.best(of: items, count: limit) }

    /// The best `count` of `candidates`, best first. They are sorted through their positions,
    /// by their ranks, not moved: a sort moves and compares each element many times, and each
    /// copy of a hit would count its folder's record up and down (a sixth of a common query's
    /// time went to those counts). Only hits of equal ranks are compared whole.
    static func best(of candidates: [Candidate], count: Int) -> [Candidate] {
        let ranks = candidates.map { $0.rank }
        var order = Array(candidates.indices)
        order.sort { left, right in
            ranks[left] != ranks[right]
                ? ranks[left].precedes(ranks[right]) : precedes(candidates[left], candidates[right])
        }
        return order.prefix(max(0, count)).map { candidates[$0] }
    }

    /// Better score, then newer (by filters alone), then shallower, then by name ignoring case
    /// and accents (the folded bytes, as the names in order are sorted), then by name as
    /// written, then by folder.
    static func precedes(_ left: Candidate, _ right: Candidate) -> Bool {
        if left.rank != right.rank { return left.rank.precedes(right.rank) }
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
