/// One folder's entries, laid out for scanning: the folded names back to back with a character
/// summary each, beside the entries themselves as columns (``FolderEntries``). Immutable: a
/// change replaces the record, so a search keeps reading the one it started with.
final class FolderRecord: Sendable {
    // What a search reads of a folder for each name it scores comes first, 32 bytes after the
    // object's own 16, so that it lies in one line of memory three times in four (an object
    // starts on a 16-byte boundary): a search by pair reads a few thousand names, each in a
    // folder of its own, and each line of a record it reads is a fetch from memory.
    /// Whether the path crosses a hidden name.
    let isHidden: Bool
    /// How many names it holds: what a name's place is checked against before ``masks`` and
    /// ``foldedEnds`` are read without their own checks (which would read each array's head,
    /// a line of memory more for each name a search reads).
    let count: Int32
    let folded: [UInt8]
    let foldedEnds: [UInt32]
    let masks: [UInt64]
    /// How many folders deep it is (the root is 0).
    let depth: Int
    /// The folder, relative to the root: `""` for the root, else `/a/b`.
    let path: String
    let pairMasks: [UInt32]
    /// Every character class any of its names holds (the union of ``masks``): a scan passes by
    /// a folder none of whose names holds all of a query's letters without reading its names.
    let anyMask: UInt64
    let entries: FolderEntries

    init(path: String, entries: [IndexedEntry]) {
        self.path = path
        let columns = FolderEntries(entries)
        self.entries = columns
        count = Int32(clamping: entries.count)
        depth = path.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
        isHidden = path.contains("/.")
        // The entries keep the folded names: these share their storage.
        folded = columns.folded
        foldedEnds = columns.foldedEnds
        var masks: [UInt64] = []
        masks.reserveCapacity(entries.count)
        var pairMasks: [UInt32] = []
        pairMasks.reserveCapacity(entries.count)
        columns.folded.withUnsafeBufferPointer { folded in
            var start = 0
            for end in columns.foldedEnds {
                let name = UnsafeBufferPointer(rebasing: folded[start..<Int(end)])
                masks.append(NameFolding.mask(name))
                pairMasks.append(NameFolding.pairMask(name))
                start = Int(end)
            }
        }
        self.masks = masks
        self.pairMasks = pairMasks
        anyMask = masks.reduce(0, |)
    }

    /// The same entries under another path (its folder, or one above it, was renamed).
    init(moving record: FolderRecord, to path: String) {
        self.path = path
        entries = record.entries
        count = record.count
        depth = path.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
        isHidden = path.contains("/.")
        folded = record.folded
        foldedEnds = record.foldedEnds
        masks = record.masks
        pairMasks = record.pairMasks
        anyMask = record.anyMask
    }

    /// Calls `body` with the folded UTF-8 of the name at `index` (what a search scores, and
    /// the first tie-break between hits: see ``TopHits``).
    @inline(__always)
    func withFoldedName<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let bounds = foldedBounds(at: index)
        return folded.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[bounds])) }
    }

    /// Where the folded name at `index` lies in ``folded``. The place is checked against
    /// ``count``, read with the record; the ends are then read without a check of their own
    /// (they were made with the names, one an entry).
    @inline(__always)
    func foldedBounds(at index: Int) -> Range<Int> {
        precondition(index >= 0 && index < Int(count), "no name at this place")
        return foldedEnds.withUnsafeBufferPointer { ends in
            (index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])
        }
    }

    /// The character summary of the name at `index` (checked as ``foldedBounds(at:)`` is).
    @inline(__always)
    func mask(at index: Int) -> UInt64 {
        precondition(index >= 0 && index < Int(count), "no name at this place")
        return masks.withUnsafeBufferPointer { $0[index] }
    }

    /// The path of one of its entries.
    func path(of index: Int) -> String { path + "/" + entries.name(at: index) }

    /// Whether this folder is `folder` or lies below it (`""` is the root).
    func lies(in folder: String) -> Bool {
        folder.isEmpty || path == folder
            || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }
}
