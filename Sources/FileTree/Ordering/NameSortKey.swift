/// What the order by name compares for one entry: the first 16 bytes of its folded name as two
/// big-endian words (inverted for a descending order, so that ascending word order is the wanted
/// order either way), and its position with its rank (0 for a folder when folders come first) in
/// the top bit.
struct NameSortKey {
    var head0: UInt64
    var head1: UInt64
    var tag: UInt32

    /// The item's position in the unsorted input.
    var index: Int { Int(tag & ~Self.fileRank) }

    /// Whether the item sorts after folders.
    var isFileRank: Bool { tag & Self.fileRank != 0 }

    /// The rank bit of an item that sorts after folders.
    static let fileRank: UInt32 = 1 << 31

    /// Whether two keys have the same rank and the same heads, so that only the rest of their
    /// names (or their positions) can order them.
    @inline(__always)
    func hasSameHead(as other: NameSortKey) -> Bool {
        head0 == other.head0 && head1 == other.head1 && isFileRank == other.isFileRank
    }

    @inline(__always)
    func headPrecedes(_ other: NameSortKey) -> Bool {
        head0 != other.head0 ? head0 < other.head0 : head1 < other.head1
    }

    /// Orders `keys` by rank, then by heads (ascending words), leaving keys with the same rank
    /// and heads next to each other in no particular order: a caller orders those runs by the
    /// rest of their names.
    ///
    /// This is a most-significant-byte radix sort. Names in one folder share long beginnings
    /// (`IMG_`, `file_0`), so each range first skips the bytes all its keys share in one pass,
    /// then spreads by the first byte that differs; small ranges finish with an insertion sort.
    /// For 10,000 names it takes less than half the time of the standard library's merge sort
    /// with the same comparison, which mispredicts a branch at nearly every step.
    static func sortByRankAndHead(_ keys: inout [NameSortKey]) {
        guard keys.count > 1 else { return }
        // Folders first, in one stable pass; each rank is then sorted on its own.
        var ranked: [NameSortKey] = []
        ranked.reserveCapacity(keys.count)
        for key in keys where !key.isFileRank { ranked.append(key) }
        let folders = ranked.count
        for key in keys where key.isFileRank { ranked.append(key) }
        keys = ranked
        var scratch = keys
        keys.withUnsafeMutableBufferPointer { keys in
            scratch.withUnsafeMutableBufferPointer { scratch in
                radixSort(keys, scratch, 0..<folders, byte: 0)
                radixSort(keys, scratch, folders..<keys.count, byte: 0)
            }
        }
    }

    /// The `byte`th byte of the heads (0 is head0's most significant).
    @inline(__always)
    private func headByte(_ byte: Int) -> Int {
        let word = byte < 8 ? head0 : head1
        return Int(truncatingIfNeeded: word >> UInt64(56 - 8 * (byte & 7))) & 0xff
    }

    private static func radixSort(
        _ keys: UnsafeMutableBufferPointer<NameSortKey>, _ scratch: UnsafeMutableBufferPointer<NameSortKey>,
        _ range: Range<Int>, byte: Int
    ) {
        guard range.count > 1 else { return }
        if range.count <= 32 {
            for position in range.dropFirst() {
                let key = keys[position]
                var hole = position
                while hole > range.lowerBound && key.headPrecedes(keys[hole - 1]) {
                    keys[hole] = keys[hole - 1]
                    hole -= 1
                }
                keys[hole] = key
            }
            return
        }
        // The first byte at which the range's keys differ, found in one pass.
        let first = keys[range.lowerBound]
        var differences0: UInt64 = 0
        var differences1: UInt64 = 0
        for position in range {
            differences0 |= keys[position].head0 ^ first.head0
            differences1 |= keys[position].head1 ^ first.head1
        }
        let differing: Int
        if differences0 != 0 {
            differing = differences0.leadingZeroBitCount / 8
        } else if differences1 != 0 {
            differing = 8 + differences1.leadingZeroBitCount / 8
        } else {
            return  // every head is the same
        }
        let byte = max(byte, differing)
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 257) { ends in
            ends.initialize(repeating: 0)
            for position in range { ends[keys[position].headByte(byte) + 1] += 1 }
            for bucket in 1...256 { ends[bucket] += ends[bucket - 1] }
            // `ends[b]` is where bucket b starts; after the spread it is where it ends.
            for position in range {
                let bucket = keys[position].headByte(byte)
                scratch[range.lowerBound + ends[bucket]] = keys[position]
                ends[bucket] += 1
            }
            for position in range { keys[position] = scratch[position] }
            var start = range.lowerBound
            for bucket in 0..<256 {
                let end = range.lowerBound + ends[bucket]
                if byte < 15 && end - start > 1 { radixSort(keys, scratch, start..<end, byte: byte + 1) }
                start = end
            }
        }
    }
}
