/// One found entry.
public struct SearchHit: Sendable, Hashable {
    /// Where it is, relative to the root: `/docs/a.md`.
    public var path: String
    /// The entry.
    public var entry: IndexedEntry
    /// Higher is better (see ``NameMatcher``); 0 for a search by filters alone.
    public var score: Int

    /// Makes a hit.
    public init(path: String, entry: IndexedEntry, score: Int) {
        self.path = path
        self.entry = entry
        self.score = score
    }

    /// Whether this hit comes before `other` in the results: the higher score, then (for a
    /// search by filters alone, `newestFirst`) the newer, then the shallower, then by name,
    /// then by folder. The index keeps its best hits in this order; a search without the index
    /// sorts with it, so both answer alike.
    public func ranks(before other: SearchHit, newestFirst: Bool) -> Bool {
        if score != other.score { return score > other.score }
        if newestFirst && entry.modified != other.entry.modified {
            return entry.modified > other.entry.modified
        }
        let (depth, otherDepth) = (Self.depth(of: path), Self.depth(of: other.path))
        if depth != otherDepth { return depth < otherDepth }
        if entry.name != other.entry.name { return entry.name < other.entry.name }
        return Self.folder(of: path) < Self.folder(of: other.path)
    }

    /// The folder part of a path (`""` for the root's own entries), compared as the index
    /// compares its folders.
    static func folder(of path: String) -> Substring {
        path.unicodeScalars.lastIndex(of: "/").map { Substring(path.unicodeScalars[..<$0]) } ?? ""
    }

    /// Folders above a path's own (`/a.txt` is 0 deep, `/a/b.txt` 1).
    static func depth(of path: String) -> Int {
        path.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) } - 1
    }
}
