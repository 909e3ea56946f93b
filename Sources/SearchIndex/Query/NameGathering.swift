/// The hits a search by pair has gathered, and how each name it reads is scored and
/// offered: substrings only, or scattered letters too (``consider(_:in:gapsAtLeast:)``), filters
/// and rights applied before a hit counts. A value the search mutates in place, so its loops hold no
/// closure over it.
struct NameGathering {
    /// The best hits so far.
    var top: TopHits
    /// How many admitted names held the query. Every one is counted until the hits were first
    /// cut back (at four times the limit); past that the count no longer matters.
    private(set) var admitted = 0
    private let query: SearchQuery
    /// The folded query, lent for as long as the search runs.
    private let text: UnsafeBufferPointer<UInt8>
    /// The folder searched (`""` for the root).
    private let folder: String
    private let filtering: Bool
    private let hidesHidden: Bool
    /// The floor shared with the other half of a search read in halves, if it is.
    private let floor: ScoreFloor?

    init(query: SearchQuery, text: UnsafeBufferPointer<UInt8>, folder: String, floor: ScoreFloor? = nil) {
        top = TopHits(limit: query.limit)
        self.floor = floor
        self.query = query
        self.text = text
        self.folder = folder
        filtering = query.hasFilters
        hidesHidden = !query.includesHidden
    }

    /// The lowest score a name must reach to enter: the best hits' own, or the floor shared
    /// with the other half when that is higher.
    var minimum: Int { max(top.minimum, floor?.current ?? 0) }

    /// The score of the last of the best `limit` hits (those here, or both halves' when that
    /// is higher); `nil` while fewer were gathered here and in the other half.
    mutating func lowestKept() -> Int? {
        let own = top.lowestKept()
        let shared = floor?.current ?? 0
        guard let own else { return shared > 0 ? shared : nil }
        return max(own, shared)
    }

    /// The folders the search looks in. A loop keeps a copy of its own to ask of each folder:
    /// asked of the gathering inside a closure that mutates it, the whole gathering is copied.
    var scope: FolderScope { FolderScope(folder: folder, includesHidden: query.includesHidden) }

    /// Scores `name`, the folded name at `index` in `record` (a folder in the search's
    /// ``scope``), and offers it when it scores below `ceiling` (a name scoring more was
    /// offered already) and could still enter.
    @inline(__always)
    mutating func consider(
        _ name: UnsafeBufferPointer<UInt8>, at index: Int, in record: FolderRecord, below ceiling: Int = .max
    ) {
        guard NameMatcher.mayReach(top.minimum, count: name.count, length: text.count),
            let found = NameMatcher.score(name, query: text, minimum: max(top.minimum, 1_000)),
            found < ceiling
        else { return }
        offer(name, scoring: found, at: index, in: record)
    }

    /// Counts and offers `name`, which scored `found`, when the query admits it.
    @inline(__always)
    private mutating func offer(
        _ name: UnsafeBufferPointer<UInt8>, scoring found: Int, at index: Int, in record: FolderRecord
    ) {
        guard
            filtering
                ? query.admits(record.entries, at: index)
                : !(hidesHidden && name.first == UInt8(ascii: "."))
        else { return }
        admitted += 1
        if top.mayTake(score: found, depth: record.depth) {
            top.offer(.init(score: found, secondary: 0, record: record, index: index, name: name))
            floor?.offer(found)
        }
    }

    /// Scores the name at `index` in `record` (a folder in the search's ``scope``) as a scan
    /// does, scattered matches too, and offers it when it could still enter. `gaps` is the
    /// fewest gaps a scattered match of it can have; above 0, it cannot hold the query as a
    /// substring.
    mutating func consider(_ index: Int, in record: FolderRecord, gapsAtLeast gaps: Int) {
        let minimum = minimum
        record.withFoldedName(at: index) { name in
            guard NameMatcher.mayReach(minimum, count: name.count, length: text.count),
                gaps == 0 || NameMatcher.mayScatter(minimum, count: name.count, missingPairs: gaps),
                let found = NameMatcher.score(name, query: text, minimum: minimum, substring: gaps == 0)
            else { return }
            offer(name, scoring: found, at: index, in: record)
        }
    }

    /// ``consider(_:at:in:below:)`` for a name read on its own.
    mutating func consider(_ index: Int, in record: FolderRecord, below ceiling: Int = .max) {
        record.withFoldedName(at: index) { consider($0, at: index, in: record, below: ceiling) }
    }
}
