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
        entries = entries.withUnsafeBufferPointer { buffer in order.map { buffer[$0] } }
    }

    /// The entries, sorted.
    public func sorted(_ entries: [FileEntry]) -> [FileEntry] {
        var copy = entries
        sort(&copy)
        return copy
    }

    /// The positions of `entries` in sorted order. Each entry's key (folder rank, value, folded
    /// name) is computed once, and the sort compares those small keys, never the entries.
    func sortedIndices(of entries: [FileEntry]) -> [Int] {
        let minimum = Timestamp(seconds: .min, nanoseconds: 0)
        func value(_ entry: FileEntry) -> (Int64, Int32) {
            switch key {
            case .name, .kind: return (0, 0)
            case .size: return (entry.size, 0)
            case .modified:
                let time = entry.status?.modified ?? minimum
                return (time.seconds, time.nanoseconds)
            case .created:
                let time = entry.status?.created ?? minimum
                return (time.seconds, time.nanoseconds)
            case .accessed:
                let time = entry.status?.accessed ?? minimum
                return (time.seconds, time.nanoseconds)
            }
        }
        var keys: [SortKey] = []
        keys.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let (seconds, nanoseconds) = value(entry)
            keys.append(
                SortKey(
                    folder: foldersFirst && entry.sortsAsFolder, value: seconds, fraction: nanoseconds,
                    kind: key == .kind ? entry.contentType.identifier : nil, name: NaturalName(entry.name),
                    index: index))
        }
        let ascending = ascending
        let byName = key == .name
        keys.sort { left, right in
            if left.folder != right.folder { return left.folder }
            if left.value != right.value { return (left.value < right.value) == ascending }
            if left.fraction != right.fraction { return (left.fraction < right.fraction) == ascending }
            if let leftKind = left.kind, let rightKind = right.kind, leftKind != rightKind {
                return (leftKind < rightKind) == ascending
            }
            if left.name != right.name { return (left.name < right.name) == (ascending || !byName) }
            return left.index < right.index
        }
        return keys.map(\.index)
    }
}

/// What a sort compares for one entry, computed once.
private struct SortKey {
    let folder: Bool
    let value: Int64
    let fraction: Int32
    let kind: String?
    let name: NaturalName
    let index: Int
}

extension FileEntry {
    /// Folders and links to folders sort with folders.
    var sortsAsFolder: Bool { type == .directory || symlink?.targetType == .directory }
}
