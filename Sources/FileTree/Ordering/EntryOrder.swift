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

    /// The positions of `entries` in sorted order. Each entry's key is computed once: a small
    /// record (folder rank, value) and its folded name in one shared byte buffer, compared with
    /// `memcmp`; the entries themselves are never touched while sorting.
    func sortedIndices(of entries: [FileEntry]) -> [Int] {
        let minimum = Timestamp(seconds: .min, nanoseconds: 0)
        var kindRanks: [String: Int64] = [:]
        if key == .kind {
            for (rank, identifier) in Set(entries.map(\.contentType.identifier)).sorted().enumerated() {
                kindRanks[identifier] = Int64(rank)
            }
        }
        var names: [UInt8] = []
        names.reserveCapacity(entries.count * 20)
        var keys: [SortKey] = []
        keys.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            var value: Int64 = 0
            var fraction: Int32 = 0
            switch key {
            case .name: break
            case .kind: value = kindRanks[entry.contentType.identifier] ?? 0
            case .size: value = entry.size
            case .modified, .created, .accessed:
                let time =
                    (key == .modified
                        ? entry.status?.modified : key == .created ? entry.status?.created : entry.status?.accessed)
                    ?? minimum
                value = time.seconds
                fraction = time.nanoseconds
            }
            let start = names.count
            NaturalName.appendKey(of: entry.name, into: &names)
            keys.append(
                SortKey(
                    folder: foldersFirst && entry.sortsAsFolder, value: value, fraction: fraction,
                    nameStart: Int32(start), nameLength: Int32(names.count - start), index: Int32(index)))
        }
        let ascending = ascending
        let nameAscending = ascending || key != .name
        names.withUnsafeBufferPointer { folded in
            keys.sort { left, right in
                if left.folder != right.folder { return left.folder }
                if left.value != right.value { return (left.value < right.value) == ascending }
                if left.fraction != right.fraction { return (left.fraction < right.fraction) == ascending }
                let order = NaturalName.compare(
                    UnsafeBufferPointer(rebasing: folded[Int(left.nameStart)..<Int(left.nameStart + left.nameLength)]),
                    UnsafeBufferPointer(rebasing: folded[Int(right.nameStart)..<Int(right.nameStart + right.nameLength)]))
                if order != 0 { return (order < 0) == nameAscending }
                let leftName = entries[Int(left.index)].name
                let rightName = entries[Int(right.index)].name
                if leftName != rightName {
                    return leftName.unicodeScalars.lexicographicallyPrecedes(rightName.unicodeScalars) == nameAscending
                }
                return left.index < right.index
            }
        }
        return keys.map { Int($0.index) }
    }
}

/// What a sort compares for one entry, computed once; the folded name lives in a shared buffer.
private struct SortKey {
    let folder: Bool
    let value: Int64
    let fraction: Int32
    let nameStart: Int32
    let nameLength: Int32
    let index: Int32
}

extension FileEntry {
    /// Folders and links to folders sort with folders.
    var sortsAsFolder: Bool { type == .directory || symlink?.targetType == .directory }
}
