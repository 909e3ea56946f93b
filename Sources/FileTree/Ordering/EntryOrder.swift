/// How entries are ordered: by a key, in a direction, optionally with folders first.
///
/// ``browsey`` is the order of Browsey's listings: folders first, then names compared the way
/// people read them (case and accents ignored, numbers by value).
///
/// ```swift
/// let newestFirst = EntryOrder(.modified, ascending: false)
/// let folder = try DirectoryReader(order: newestFirst).read(at: path)
/// ```
public struct EntryOrder: Sendable, Hashable {
    /// What entries are compared by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The name, case- and accent-insensitive, numbers by value.
        case name
        /// The size in bytes.
        case size
        /// The modification date.
        case modified
        /// The creation date (entries without one sort as oldest).
        case created
        /// The last access date.
        case accessed
        /// The content type's identifier, then the name.
        case kind
    }

    /// What entries are compared by.
    public var key: Key
    /// Smallest, oldest or A first when `true`.
    public var ascending: Bool
    /// Whether folders come before everything else, whatever the direction.
    public var foldersFirst: Bool

    /// An order by `key`.
    public init(_ key: Key, ascending: Bool = true, foldersFirst: Bool = true) {
        self.key = key
        self.ascending = ascending
        self.foldersFirst = foldersFirst
    }

    /// Browsey's order: folders first, then names.
    public static let browsey = EntryOrder(.name)

    /// Sorts entries in place. Ties on the key fall back to the name, so the order is total.
    public func sort(_ entries: inout [FileEntry]) {
        let order = sortedIndices(of: entries)
        entries = order.map { entries[$0] }
    }

    /// The entries, sorted.
    public func sorted(_ entries: [FileEntry]) -> [FileEntry] {
        var copy = entries
        sort(&copy)
        return copy
    }

    /// The positions of `entries` in sorted order. Names are folded once per entry, not per
    /// comparison.
    func sortedIndices(of entries: [FileEntry]) -> [Int] {
        let names = entries.map { NaturalName($0.name) }
        return entries.indices.sorted { a, b in
            let left = entries[a]
            let right = entries[b]
            if foldersFirst {
                let leftFolder = left.sortsAsFolder
                let rightFolder = right.sortsAsFolder
                if leftFolder != rightFolder { return leftFolder }
            }
            if let decided = compareKey(left, right) { return decided == ascending }
            if names[a] != names[b] { return (names[a] < names[b]) == (ascending || key != .name) }
            return a < b
        }
    }

    /// `true` when `left` comes first on the key in ascending order, `nil` when they tie.
    private func compareKey(_ left: FileEntry, _ right: FileEntry) -> Bool? {
        func decide<T: Comparable>(_ a: T, _ b: T) -> Bool? { a == b ? nil : a < b }
        let minimum = Timestamp(seconds: .min, nanoseconds: 0)
        switch key {
        case .name: return nil
        case .size: return decide(left.size, right.size)
        case .modified: return decide(left.status?.modified ?? minimum, right.status?.modified ?? minimum)
        case .created: return decide(left.status?.created ?? minimum, right.status?.created ?? minimum)
        case .accessed: return decide(left.status?.accessed ?? minimum, right.status?.accessed ?? minimum)
        case .kind: return decide(left.contentType.identifier, right.contentType.identifier)
        }
    }
}

extension FileEntry {
    /// Folders and links to folders sort with folders.
    var sortsAsFolder: Bool { type == .directory || symlink?.targetType == .directory }
}
