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
        sort(&entries, linkSortsAsFolder: nil)
    }

    /// Sorts entries in place, asking `linkSortsAsFolder` of each link to a folder (see
    /// ``DirectoryReader/linkSortsAsFolder``).
    func sort(_ entries: inout [FileEntry], linkSortsAsFolder: (@Sendable (String) -> Bool)?) {
        let order = sortedIndices(of: entries, linkSortsAsFolder: linkSortsAsFolder)
        entries = entries.withUnsafeBufferPointer { buffer in order.map { buffer[$0] } }
    }

    /// The entries, sorted.
    public func sorted(_ entries: [FileEntry]) -> [FileEntry] {
        var copy = entries
        sort(&copy)
        return copy
    }

    /// The positions of `entries` in sorted order; `linkSortsAsFolder` as
    /// ``DirectoryReader/linkSortsAsFolder``.
    func sortedIndices(
        of entries: [FileEntry], linkSortsAsFolder: (@Sendable (String) -> Bool)? = nil
    ) -> [Int] {
        sortedIndices(
            count: entries.count,
            sortsAsFolder: { index in
                let entry = entries[index]
                guard entry.sortsAsFolder else { return false }
                guard entry.type == .symlink, let linkSortsAsFolder else { return true }
                return linkSortsAsFolder(entry.path)
            },
            status: { entries[$0].status },
            kind: { entries[$0].contentType.identifier },
            appendFoldedName: { NaturalName.appendKey(of: entries[$0].name, into: &$1) },
            namePrecedes: { left, right in
                // By bytes, as a listing compares them: `String`'s `==` would call an NFC name
                // and its NFD twin equal, leaving them in the order the disk gave.
                let leftName = entries[left].name.utf8
                let rightName = entries[right].name.utf8
                guard !leftName.elementsEqual(rightName) else { return nil }
                return leftName.lexicographicallyPrecedes(rightName)
            })
    }

    /// The positions of `count` items in sorted order, whatever holds them. Each item's key is
    /// computed once: a small record (folder rank, value) and its folded name in one shared byte
    /// buffer, compared with `memcmp`; the items themselves are only asked again to break a tie
    /// between two names that fold alike (`namePrecedes`, `nil` when the names are equal).
    func sortedIndices(
        count: Int,
        sortsAsFolder: (Int) -> Bool,
        status: (Int) -> FileStatus?,
        kind: (Int) -> String,
        appendFoldedName: (Int, inout [UInt8]) -> Void,
        namePrecedes: (Int, Int) -> Bool?
    ) -> [Int] {
        if key == .name && count < Int(Int32.max) {
            return sortedIndicesByName(
                count: count, sortsAsFolder: sortsAsFolder, appendFoldedName: appendFoldedName,
                namePrecedes: namePrecedes)
        }
        let minimum = Timestamp(seconds: .min, nanoseconds: 0)
        var kindRanks: [String: Int64] = [:]
        if key == .kind {
            let kinds = (0..<count).map(kind)
            for (rank, identifier) in Set(kinds).sorted().enumerated() { kindRanks[identifier] = Int64(rank) }
        }
        var names: [UInt8] = []
        names.reserveCapacity(count * 20)
        var keys: [SortKey] = []
        keys.reserveCapacity(count)
        for index in 0..<count {
            var value: Int64 = 0
            var fraction: Int32 = 0
            switch key {
            case .name: break
            case .kind: value = kindRanks[kind(index)] ?? 0
            case .size: value = status(index)?.size ?? 0
            case .modified, .created, .accessed:
                let itemStatus = status(index)
                let time =
                    (key == .modified
                        ? itemStatus?.modified : key == .created ? itemStatus?.created : itemStatus?.accessed)
                    ?? minimum
                value = time.seconds
                fraction = time.nanoseconds
            }
            let start = names.count
            appendFoldedName(index, &names)
            let (head0, head1) = names.withUnsafeBufferPointer {
                SortKey.head(of: UnsafeBufferPointer(rebasing: $0[start...]))
            }
            keys.append(
                SortKey(
                    folder: foldersFirst && sortsAsFolder(index), value: value, fraction: fraction,
                    nameStart: Int32(start), nameLength: Int32(names.count - start), index: Int32(index),
                    head0: head0, head1: head1))
        }
        let ascending = ascending
        let nameAscending = ascending || key != .name
        names.withUnsafeBufferPointer { folded in
            keys.sort { left, right in
                if left.folder != right.folder { return left.folder }
                if left.value != right.value { return (left.value < right.value) == ascending }
                if left.fraction != right.fraction { return (left.fraction < right.fraction) == ascending }
                // The first 16 bytes of the folded names are in the keys: most names differ there,
                // and comparing them touches no other memory.
                if left.head0 != right.head0 { return (left.head0 < right.head0) == nameAscending }
                if left.head1 != right.head1 { return (left.head1 < right.head1) == nameAscending }
                if left.nameLength > 16 && right.nameLength > 16 {
                    let order = NaturalName.compare(
                        UnsafeBufferPointer(
                            rebasing: folded[Int(left.nameStart + 16)..<Int(left.nameStart + left.nameLength)]
                        ),
                        UnsafeBufferPointer(
                            rebasing: folded[
                                Int(right.nameStart + 16)..<Int(right.nameStart + right.nameLength)]))
                    if order != 0 { return (order < 0) == nameAscending }
                }
                if let precedes = namePrecedes(Int(left.index), Int(right.index)) {
                    return precedes == nameAscending
                }
                return left.index < right.index
            }
        }
        return keys.map { Int($0.index) }
    }
}

extension EntryOrder {
    /// ``sortedIndices(count:sortsAsFolder:status:kind:appendFoldedName:namePrecedes:)`` for the
    /// order by name, the one every listing uses: a 24-byte key sorted by its rank and the first
    /// 16 bytes of the folded name (``NameSortKey/sortByRankAndHead(_:)``, a radix sort), then
    /// each run of keys with the same beginning by the rest of the names.
    fileprivate func sortedIndicesByName(
        count: Int,
        sortsAsFolder: (Int) -> Bool,
        appendFoldedName: (Int, inout [UInt8]) -> Void,
        namePrecedes: (Int, Int) -> Bool?
    ) -> [Int] {
        var names: [UInt8] = []
        names.reserveCapacity(count * 20)
        // Where each item's folded name lies in `names`, by the item's position.
        var starts = [Int32](repeating: 0, count: count + 1)
        var keys: [NameSortKey] = []
        keys.reserveCapacity(count)
        // Inverted words order a descending sort ascending.
        let invert: UInt64 = ascending ? 0 : ~0
        for index in 0..<count {
            let start = names.count
            starts[index] = Int32(start)
            appendFoldedName(index, &names)
            let (head0, head1) = names.withUnsafeBufferPointer {
                SortKey.head(of: UnsafeBufferPointer(rebasing: $0[start...]))
            }
            let rank: UInt32 = foldersFirst && sortsAsFolder(index) ? 0 : NameSortKey.fileRank
            keys.append(NameSortKey(head0: head0 ^ invert, head1: head1 ^ invert, tag: rank | UInt32(index)))
        }
        starts[count] = Int32(names.count)
        NameSortKey.sortByRankAndHead(&keys)
        let ascending = ascending
        names.withUnsafeBufferPointer { folded in
            starts.withUnsafeBufferPointer { starts in
                // Keys with the same rank and beginning: both names are longer than 16 bytes, or
                // both are the same.
                func precedes(_ left: NameSortKey, _ right: NameSortKey) -> Bool {
                    let (leftIndex, rightIndex) = (left.index, right.index)
                    let leftEnd = Int(starts[leftIndex + 1])
                    let leftRange = min(Int(starts[leftIndex]) + 16, leftEnd)..<leftEnd
                    let rightEnd = Int(starts[rightIndex + 1])
                    let rightRange = min(Int(starts[rightIndex]) + 16, rightEnd)..<rightEnd
                    if !leftRange.isEmpty && !rightRange.isEmpty {
                        let order = NaturalName.compare(
                            UnsafeBufferPointer(rebasing: folded[leftRange]),
                            UnsafeBufferPointer(rebasing: folded[rightRange]))
                        if order != 0 { return (order < 0) == ascending }
                    }
                    if let precedes = namePrecedes(leftIndex, rightIndex) { return precedes == ascending }
                    return leftIndex < rightIndex
                }
                var runStart = 0
                while runStart < keys.count {
                    var runEnd = runStart + 1
                    while runEnd < keys.count && keys[runEnd].hasSameHead(as: keys[runStart]) { runEnd += 1 }
                    if runEnd - runStart > 1 { keys[runStart..<runEnd].sort(by: precedes) }
                    runStart = runEnd
                }
            }
        }
        return keys.map(\.index)
    }
}

/// What a sort compares for one entry, computed once; the folded name lives in a shared buffer,
/// and its first 16 bytes also here, as two big-endian words.
private struct SortKey {
    let folder: Bool
    let value: Int64
    let fraction: Int32
    let nameStart: Int32
    let nameLength: Int32
    let index: Int32
    let head0: UInt64
    let head1: UInt64

    /// The first 16 bytes of a folded name as two words that compare as the bytes do, padded
    /// with zeros. A folded name holds no zero byte, so when the words of two names are equal,
    /// either both names are longer than 16 bytes or they are the same.
    static func head(of folded: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(folded).prefix(16)))
        }
        return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
    }
}

extension FileEntry {
    /// Folders and links to folders sort with folders.
    var sortsAsFolder: Bool { type == .directory || symlink?.targetType == .directory }
}
