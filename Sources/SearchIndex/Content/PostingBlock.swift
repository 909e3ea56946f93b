/// A segment's rows as the content index keeps them: 64 keys to a block (a key's block is
/// `key >> 6`), the blocks one after the other in the segment's file (see ``SegmentFile``). A
/// segment of 4,096 files of prose is about 900 blocks of about 12 KB; a search reads one block
/// a trigram it asks for.
///
/// The bytes, little-endian: a 64-bit mask of the keys the block holds (bit `key & 63`); then for
/// each key held, in order, its file count and the end of its encoded row (two 32-bit numbers,
/// the end counted from the start of the rows); then the encoded rows (see ``Postings``), one
/// after the other.
struct PostingBlock: Sendable {
    /// The block's number: its keys' `key >> 6`.
    var number: Int
    var data: [UInt8]

    /// The blocks holding `rows` (sorted by key), in order. Each row's bytes are let go once
    /// copied, so that a segment is not held twice.
    static func pack(_ rows: consuming [SegmentBuilder.Row]) -> [PostingBlock] {
        var rows = rows
        var blocks: [PostingBlock] = []
        var start = 0
        while start < rows.count {
            let number = Int(rows[start].key >> 6)
            var end = start + 1
            while end < rows.count && Int(rows[end].key >> 6) == number { end += 1 }
            blocks.append(PostingBlock(number: number, data: pack(rows[start..<end])))
            for index in start..<end { rows[index].data = [] }
            start = end
        }
        return blocks
    }

    private static func pack(_ rows: ArraySlice<SegmentBuilder.Row>) -> [UInt8] {
        let header = 8 + rows.count * 8
        let size = header + rows.reduce(0) { $0 + $1.data.count }
        return [UInt8](unsafeUninitializedCapacity: size) { bytes, initialized in
            let raw = UnsafeMutableRawBufferPointer(bytes)
            var mask: UInt64 = 0
            var entry = 8
            var end = 0
            for row in rows {
                mask |= 1 << UInt64(row.key & 63)
                row.data.withUnsafeBytes { data in
                    UnsafeMutableRawBufferPointer(rebasing: raw[(header + end)...]).copyMemory(from: data)
                }
                end += row.data.count
                raw.storeBytes(of: UInt32(row.count).littleEndian, toByteOffset: entry, as: UInt32.self)
                raw.storeBytes(of: UInt32(end).littleEndian, toByteOffset: entry + 4, as: UInt32.self)
                entry += 8
            }
            raw.storeBytes(of: mask.littleEndian, toByteOffset: 0, as: UInt64.self)
            initialized = size
        }
    }

    /// Calls `body` with the file count and the encoded row of each key `data` holds, in key
    /// order. A block that does not add up (the file is damaged) is read as far as it does.
    static func forEachRow(
        in data: UnsafeRawBufferPointer, number: Int, _ body: (UInt32, Int, UnsafeRawBufferPointer) -> Void
    ) {
        guard data.count >= 8 else { return }
        var mask = UInt64(littleEndian: data.loadUnaligned(as: UInt64.self))
        let header = 8 + mask.nonzeroBitCount * 8
        guard header <= data.count else { return }
        var entry = 8
        var start = 0
        while mask != 0 {
            let key = UInt32(number << 6 | mask.trailingZeroBitCount)
            mask &= mask &- 1
            let count = number32(data, at: entry)
            let end = number32(data, at: entry + 4)
            guard start <= end, header + end <= data.count else { return }
            body(key, count, UnsafeRawBufferPointer(rebasing: data[(header + start)..<(header + end)]))
            entry += 8
            start = end
        }
    }

    /// The file count and encoded row of `key` in `data`, its block; `nil` when the block does not
    /// hold it (or does not add up).
    static func row<Result>(
        of key: UInt32, in data: UnsafeRawBufferPointer, _ body: (Int, UnsafeRawBufferPointer) -> Result
    ) -> Result? {
        guard data.count >= 8 else { return nil }
        let mask = UInt64(littleEndian: data.loadUnaligned(as: UInt64.self))
        let bit = UInt64(key & 63)
        guard mask >> bit & 1 == 1 else { return nil }
        let index = (mask & ((1 << bit) - 1)).nonzeroBitCount
        let header = 8 + mask.nonzeroBitCount * 8
        guard header <= data.count else { return nil }
        let entry = 8 + index * 8
        let count = number32(data, at: entry)
        let end = number32(data, at: entry + 4)
        let start = index == 0 ? 0 : number32(data, at: entry - 4)
        guard start <= end, header + end <= data.count else { return nil }
        return body(count, UnsafeRawBufferPointer(rebasing: data[(header + start)..<(header + end)]))
    }

    /// The little-endian 32-bit number at `offset` (inside the header, checked by the caller).
    private static func number32(_ data: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }
}
