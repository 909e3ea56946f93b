/// One folder's entries, stored as columns: every name's UTF-8 back to back with where each
/// ends, and each entry's kind, size, date and inode in an array of its own.
///
/// An ``IndexedEntry`` in an array takes 48 bytes, and its name a heap object of its own when it
/// is longer than 15 bytes (a 32-byte header and the bytes, rounded up by the allocator: 64 bytes
/// for a 20-byte name). Stored as columns an entry takes its name's bytes and 29 more, which over
/// a million names is about 60 MiB less. A collection of ``IndexedEntry`` all the same: an
/// element is made when it is read (its name a new `String`), so the hot paths of a search read
/// the columns instead (``kinds``, ``sizes``, ``modified``, ``withName(at:_:)``).
///
/// The names are kept folded, as a search reads them (``NameFolding``: lowercase, accents
/// dropped), and a name is kept a second time only when it differs from its folded form: most
/// names are lowercase ASCII, so a million names keep about 20 MiB once instead of twice.
struct FolderEntries: RandomAccessCollection, Sendable {
    /// Every name folded, one after the other (what a search scores).
    let folded: [UInt8]
    /// Where each folded name ends in ``folded``.
    let foldedEnds: [UInt32]
    /// The entries whose names are not their own folded form, ascending.
    private let unlike: [UInt32]
    /// Those entries' names as they are, one after the other.
    private let unlikeNames: [UInt8]
    /// Where each of them ends in ``unlikeNames``.
    private let unlikeEnds: [UInt32]
    /// Each entry's kind.
    let kinds: [IndexedEntry.Kind]
    /// Each entry's size in bytes.
    let sizes: NarrowColumn
    /// Each entry's modification time, nanoseconds since 1970.
    let modified: [Int64]
    /// Each entry's inode.
    private let inodes: NarrowColumn

    /// Stores `entries` as columns, in their order.
    init(_ entries: [IndexedEntry]) {
        var folded: [UInt8] = []
        folded.reserveCapacity(entries.reduce(0) { $0 + $1.name.utf8.count })
        var ends: [UInt32] = []
        ends.reserveCapacity(entries.count)
        var unlike: [UInt32] = []
        var unlikeNames: [UInt8] = []
        var unlikeEnds: [UInt32] = []
        for (index, entry) in entries.enumerated() {
            var name = entry.name
            let start = folded.count
            name.withUTF8 { name in
                NameFolding.fold(name, into: &folded)
                let same = folded.withUnsafeBufferPointer { folded in
                    folded.count - start == name.count && name.elementsEqual(folded[start...])
                }
                if !same {
                    unlike.append(UInt32(index))
                    unlikeNames.append(contentsOf: name)
                    unlikeEnds.append(UInt32(unlikeNames.count))
                }
            }
            ends.append(UInt32(folded.count))
        }
        self.folded = folded
        foldedEnds = ends
        self.unlike = unlike
        self.unlikeNames = unlikeNames
        self.unlikeEnds = unlikeEnds
        kinds = entries.map(\.kind)
        sizes = NarrowColumn(entries.map(\.size))
        modified = entries.map(\.modified)
        inodes = NarrowColumn(entries.map { Int64(bitPattern: $0.inode) })
    }

    /// How many bytes of names are kept a second time, as they are (the names unlike their
    /// folded form).
    var unlikeNameBytes: Int { unlikeNames.count }

    var startIndex: Int { 0 }
    var endIndex: Int { foldedEnds.count }

    /// The entry at `index`, made anew (its name a new `String`).
    subscript(index: Int) -> IndexedEntry {
        IndexedEntry(
            name: name(at: index), kind: kinds[index], size: sizes[index], modified: modified[index],
            inode: UInt64(bitPattern: inodes[index]))
    }

    /// The name of the entry at `index`.
    func name(at index: Int) -> String {
        withName(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 of the name of the entry at `index`, without making a string.
    func withName<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if !unlike.isEmpty, let position = unlike.place(of: UInt32(index)) {
            let start = position == 0 ? 0 : Int(unlikeEnds[position - 1])
            let end = Int(unlikeEnds[position])
            return unlikeNames.withUnsafeBufferPointer {
                body(UnsafeBufferPointer(rebasing: $0[start..<end]))
            }
        }
        let start = index == 0 ? 0 : Int(foldedEnds[index - 1])
        let end = Int(foldedEnds[index])
        return folded.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Where the entry whose name is `name`, byte for byte, stands (a name on disk is its bytes);
    /// found without making a string of each name.
    func firstIndex(named name: Substring) -> Int? {
        var name = name
        return name.withUTF8 { wanted in
            indices.first { index in
                withName(at: index) { $0.count == wanted.count && $0.elementsEqual(wanted) }
            }
        }
    }

    /// How the name at `index` orders against `other`'s name at `otherIndex`, as Swift orders
    /// the two names as strings: below zero when it comes first, zero when they are equal. Where
    /// the names differ in ASCII, with no other byte before or just after (the most common case),
    /// they are compared byte by byte without making a string (the order is the same); any other
    /// pair as strings.
    func compareName(at index: Int, to other: FolderEntries, at otherIndex: Int) -> Int {
        let bytes = withName(at: index) { left in
            other.withName(at: otherIndex) { right -> Int? in
                let shared = Swift.min(left.count, right.count)
                var position = 0
                while position < shared {
                    let a = left[position]
                    let b = right[position]
                    guard a < 0x80 && b < 0x80 else { return nil }
                    if a != b {
                        // A combining mark after either letter would join it (NFC): strings decide.
                        let next = position + 1
                        if next < left.count && left[next] >= 0x80 { return nil }
                        if next < right.count && right[next] >= 0x80 { return nil }
                        return a < b ? -1 : 1
                    }
                    position += 1
                }
                // One is a prefix of the other: the rest decides only if it is ASCII too.
                let rest = left.count > shared ? left[shared] : right.count > shared ? right[shared] : 0
                guard rest < 0x80 else { return nil }
                return left.count == right.count ? 0 : left.count < right.count ? -1 : 1
            }
        }
        if let bytes { return bytes }
        let left = name(at: index)
        let right = other.name(at: otherIndex)
        return left == right ? 0 : left < right ? -1 : 1
    }

    /// Whether `entries` are these, in the same order: the same names byte for byte (a name
    /// renamed from one Unicode form to another is a change on disk), kinds, sizes, dates and
    /// inodes. Reads the columns: makes no string.
    func holdsTheSame(as entries: [IndexedEntry]) -> Bool {
        guard entries.count == count else { return false }
        for (index, entry) in entries.enumerated() {
            guard kinds[index] == entry.kind, sizes[index] == entry.size, modified[index] == entry.modified,
                inodes[index] == Int64(bitPattern: entry.inode)
            else { return false }
            var name = entry.name
            let same = name.withUTF8 { other in
                withName(at: index) { $0.count == other.count && $0.elementsEqual(other) }
            }
            guard same else { return false }
        }
        return true
    }

    /// Whether these are the same entries as `other`'s (see ``holdsTheSame(as:)``).
    func holdsTheSame(as other: FolderEntries) -> Bool {
        folded == other.folded && foldedEnds == other.foldedEnds && unlike == other.unlike
            && unlikeNames == other.unlikeNames && unlikeEnds == other.unlikeEnds && kinds == other.kinds
            && sizes == other.sizes && modified == other.modified && inodes == other.inodes
    }
}
