/// Every name of one catalog, in the order of its folded bytes: the names that start with a
/// query are one run of it, found by binary search.
///
/// A prefix outranks every other match (a prefix scores 7,001 or more, any other substring at
/// most 5,999), so when a query is the start of at least `limit` names that the search admits,
/// the best `limit` hits are all in that run and the catalog need not be scanned at all. That
/// is the common case of a person typing the first letters of a name ("rep" for report.pdf), and
/// the costliest for a scan, which meets thousands of matches.
///
/// Built off the request path from one catalog value and used only with that same value: a
/// search on a newer catalog scans until the next order is built.
final class NameOrder: Sendable {
    /// The catalog's folders, in the catalog's order (entries are named by their place here).
    let folders: [FolderRecord]
    /// Each name's number (its folder's first number, ``starts``, plus its place in the
    /// folder), sorted by folded bytes: four bytes a name.
    private let order: [UInt32]
    /// The number of each folder's first name, then the count of names.
    let starts: [UInt32]
    /// For each run of 256 numbers, the folder holding its first: a number's folder is found
    /// from there in a step or two (folders hold about a hundred names), not by a search.
    private let blockFolders: [UInt32]
    /// Each name's folded length in bytes (255 for longer ones), beside ``order``: a prefix
    /// scores by its name's length, so once the best hits are gathered a longer name of the run
    /// is passed by without reading its folder.
    private let lengths: [UInt8]
    /// Where the names whose first folded byte is each value begin in ``order``, then its
    /// end: 257 positions. The names holding a query one byte in are a run of each of these.
    private let firstBytes: [UInt32]
    /// Each folder's depth, read without touching the folder.
    let depths: [UInt16]
    /// For each block of ``blockSize`` positions of ``order``, the depth of the shallowest
    /// folder holding one of its names: once the best hits tie on score and a name at some
    /// depth follows the last by folded name, a block whose names all lie that deep or deeper is
    /// passed by whole (see ``NameGrams/substringHits(for:matcher:under:)``).
    private let shallowest: [UInt16]
    /// How many positions of ``order`` a block of ``shallowest`` spans.
    static let blockSize = 64

    /// Sorts the names of `folders` (off the request path: see ``NameIndex``).
    init(_ folders: [FolderRecord]) {
        self.folders = folders
        let starts = [UInt32].firstNumbers(of: folders)
        let total = starts[starts.count - 1]
        self.starts = starts
        var blockFolders: [UInt32] = []
        blockFolders.reserveCapacity(Int(total) / 256 + 1)
        var folder = 0
        for first in stride(from: UInt32(0), to: total, by: 256) {
            while starts[folder + 1] <= first { folder += 1 }
            blockFolders.append(UInt32(folder))
        }
        self.blockFolders = blockFolders
        // Sorted as `folder << 32 | index`, read without a search for the folder; kept as numbers.
        var keys: [UInt64] = []
        keys.reserveCapacity(Int(total))
        for (folder, record) in folders.enumerated() {
            for index in record.entries.indices { keys.append(UInt64(folder) << 32 | UInt64(index)) }
        }
        keys.sort { left, right in
            Self.withName(left, in: folders) { left in
                Self.withName(right, in: folders) { right in left.lexicographicallyPrecedes(right) }
            }
        }
        order = keys.map { starts[Int($0 >> 32)] + UInt32(truncatingIfNeeded: $0) }
        lengths = keys.map { key in Self.withName(key, in: folders) { UInt8(min($0.count, 255)) } }
        var firstBytes = [UInt32](repeating: 0, count: 257)
        for key in keys { Self.withName(key, in: folders) { firstBytes[Int($0.first ?? 0) + 1] += 1 } }
        for byte in 0..<256 { firstBytes[byte + 1] += firstBytes[byte] }
        self.firstBytes = firstBytes
        let depths = folders.map { UInt16(min($0.depth, Int(UInt16.max))) }
        self.depths = depths
        shallowest = stride(from: 0, to: keys.count, by: Self.blockSize).map { start in
            keys[start..<min(start + Self.blockSize, keys.count)].reduce(UInt16.max) { depth, key in
                min(depth, depths[Int(key >> 32)])
            }
        }
    }

    /// The numbers of the names that start with `text`, in the order of their folded bytes.
    func numbers(startingWith text: [UInt8]) -> ArraySlice<UInt32> {
        guard let first = text.first else { return order[...] }
        let names = Int(firstBytes[Int(first)])..<Int(firstBytes[Int(first) + 1])
        return order[run(of: text, within: names)]
    }

    /// The positions of the names that hold `text` one byte in (whatever their first byte),
    /// one run for each first byte: a binary search within each first byte's names.
    func positions(holdingAtSecondByte text: [UInt8]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var key = [0] + text
        for byte in 0..<256 where firstBytes[byte] < firstBytes[byte + 1] {
            key[0] = UInt8(byte)
            let run = run(of: key, within: Int(firstBytes[byte])..<Int(firstBytes[byte + 1]))
            if !run.isEmpty { runs.append(run) }
        }
        return runs
    }

    /// The numbers of the names at `positions`, in the order of their folded bytes.
    func numbers(at positions: Range<Int>) -> ArraySlice<UInt32> { order[positions] }

    /// The blocks of ``shallowest`` that `positions` spans, each cut to `positions`, in order.
    func blocks(of positions: Range<Int>) -> some Sequence<Range<Int>> {
        let first = positions.lowerBound / Self.blockSize
        let end = (positions.upperBound + Self.blockSize - 1) / Self.blockSize
        return (first..<end).lazy.map { block in
            max(
                positions.lowerBound, block * Self.blockSize)..<min(
                    positions.upperBound, (block + 1) * Self.blockSize)
        }
    }

    /// The depth of the shallowest folder holding a name of the block that holds `position`.
    func shallowestDepth(around position: Int) -> Int { Int(shallowest[position / Self.blockSize]) }

    /// The folder (its place in ``folders``) and the place in it of the name numbered `number`.
    func place(of number: UInt32) -> (folder: Int, index: Int) {
        let key = key(of: number)
        return (Int(key >> 32), Int(key & 0xFFFF_FFFF))
    }

    /// The key (`folder << 32 | index`) of the name numbered `number`.
    private func key(of number: UInt32) -> UInt64 {
        // The folder whose first number is at most `number` and whose next folder's is above it
        // (an empty folder's first number is the next one's).
        var folder = Int(blockFolders[Int(number >> 8)])
        while starts[folder + 1] <= number { folder += 1 }
        return UInt64(folder) << 32 | UInt64(number - starts[folder])
    }

    /// The best hits for `query` when they are all prefix matches; `nil` when fewer than
    /// `query.limit` names admitted by the query start with its text (then only a scan can say).
    func prefixHits(for query: SearchQuery, text: [UInt8], under folder: String) -> TopHits? {
        guard !text.isEmpty, !query.hasFilters else { return nil }
        let names = run(of: text, within: 0..<order.count)
        var top = TopHits(limit: query.limit)
        var admitted = 0
        let length = text.count
        // Names of one length score alike and come in the order of their folded bytes, so once
        // one at the cut-off's score and depth follows it by folded name, so do the rest of that
        // length at that depth or deeper, until the next cut: passed by without reading them.
        var passed: (cuts: Int, depth: Int)?
        text.withUnsafeBufferPointer { text in
            for position in names {
                // A longer name scores less: past the gathered hits' cut-off it cannot enter.
                // (Until the hits are first cut back the minimum is 0 and every name is read.)
                let count = Int(lengths[position])
                guard NameMatcher.mayReach(top.minimum, count: count, length: length) else { continue }
                let key = key(of: order[position])
                // Its score, known from its length (255 stands for any longer one).
                let known = count < 255 ? (count == length ? 10_000 : 8_000 - count) : nil
                let depth = Int(depths[Int(key >> 32)])
                if let known {
                    guard top.mayTake(score: known, depth: depth) else { continue }
                    if let passed, passed.cuts == top.cuts, known == top.minimum, depth >= passed.depth {
                        continue
                    }
                }
                let record = folders[Int(key >> 32)]
                let index = Int(key & 0xFFFF_FFFF)
                let score = record.withFoldedName(at: index) { name -> Int? in
                    if let known, top.follows(score: known, depth: depth, folded: name) {
                        passed = (top.cuts, depth)
                        return nil
                    }
                    guard record.lies(in: folder),
                        query.includesHidden || (!record.isHidden && name.first != UInt8(ascii: "."))
                    else {
                        return nil
                    }
                    return NameMatcher.score(name, query: text, minimum: 0)
                }
                guard let score else { continue }
                admitted += 1
                if top.mayTake(score: score, depth: record.depth) {
                    top.offer(.init(score: score, secondary: 0, record: record, index: index))
                }
            }
        }
        return admitted >= query.limit ? top : nil
    }

    /// The positions of the names that start with `text`, among `names` (positions of names
    /// that all start alike): the run ends at the first name not before `text` followed by 0xFF,
    /// a byte no UTF-8 text holds.
    private func run(of text: [UInt8], within names: Range<Int>) -> Range<Int> {
        let start = text.withUnsafeBufferPointer { firstIndex(notBefore: $0, within: names) }
        let end = (text + [0xFF]).withUnsafeBufferPointer {
            firstIndex(notBefore: $0, within: start..<names.upperBound)
        }
        return start..<end
    }

    /// The first position among `names` whose name is not before `text`.
    private func firstIndex(notBefore text: UnsafeBufferPointer<UInt8>, within names: Range<Int>) -> Int {
        var low = names.lowerBound
        var high = names.upperBound
        while low < high {
            let middle = (low + high) / 2
            let before = Self.withName(key(of: order[middle]), in: folders) {
                $0.lexicographicallyPrecedes(text)
            }
            if before { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func withName<T>(
        _ key: UInt64, in folders: [FolderRecord], _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        folders[Int(key >> 32)].withFoldedName(at: Int(key & 0xFFFF_FFFF), body)
    }
}
