/// Builds one segment of the content index in memory: for each trigram, which of the segment's
/// files (numbered from 0 in the order they are added) hold it. Each trigram met gets a row;
/// ``rows()`` gives each row's files encoded (see ``Postings``), ready to be kept.
///
/// A file is added in two passes that stay in the processor's nearest caches: each byte's
/// trigram sets its bit in a bitmap of keys, then each distinct trigram, in key order, finds its
/// row in the table and sets its bit in a bitmap of rows. The file keeps that bitmap (one bit a
/// row met so far); ``rows()`` turns the files' bitmaps into the rows' 64 by 64.
///
/// One builder a thread; ``reset(span:)`` makes it ready for the next segment, keeping its memory.
final class SegmentBuilder {
    /// One trigram's files, encoded.
    struct Row {
        var key: UInt32
        var count: Int
        var data: [UInt8]
    }

    /// How many files the segment can hold.
    private(set) var span: Int
    /// How many files were added.
    private(set) var files = 0
    /// How many trigrams have rows: what the builder's memory grows with (each file keeps a bit a
    /// row).
    var trigrams: Int { keys.count }

    /// The bytes the files' bitmaps take, with a file of `size` bytes added at worst (each of
    /// its bytes a trigram not met before, up to every key): a file's bitmap is as wide as the
    /// rows met by its end, so this grows with the files and with the rows.
    func bytes(adding size: Int) -> Int {
        bytes + ((min(keys.count + size, TrigramKeys.count) + 63) >> 6) * 8
    }

    /// The bytes the files' bitmaps take.
    var bytes: Int { fileBits.count * 8 }

    /// Key → row number + 1 (0: no row yet). 2 MiB.
    private let table: UnsafeMutablePointer<UInt32>
    /// One bit a key: the trigrams of the file being added. Clear between files; 64 KiB, of which
    /// an ASCII file touches the first half.
    private let seen: UnsafeMutablePointer<UInt64>
    /// One bit a row: the rows of the file being added. Clear between files.
    private let marks: UnsafeMutablePointer<UInt64>
    /// Each row's key.
    private var keys: [UInt32] = []
    /// The files' bitmaps of rows, one after the other, each as wide as the rows met by its end.
    private var fileBits: [UInt64] = []
    /// Where each file's bitmap ends in ``fileBits``.
    private var ends: [Int] = []

    /// The most files a builder's segment holds.
    static let maximumSpan = 4096
    /// The most bytes the files' bitmaps may take: a segment ends before a file that could take
    /// them past this (see ``bytes(adding:)``). A full segment of prose takes 12.8 MiB.
    static let maximumBytes = 16 << 20

    /// A builder for segments of up to `span` files.
    init(span: Int) {
        precondition(span > 0 && span <= Self.maximumSpan)
        self.span = span
        table = .allocate(capacity: TrigramKeys.count)
        table.initialize(repeating: 0, count: TrigramKeys.count)
        seen = .allocate(capacity: TrigramKeys.count >> 6)
        seen.initialize(repeating: 0, count: TrigramKeys.count >> 6)
        marks = .allocate(capacity: TrigramKeys.count >> 6)
        marks.initialize(repeating: 0, count: TrigramKeys.count >> 6)
        // Room for the most the bitmaps take, made once: the memory is the system's only as it
        // is written, and growing would copy it (twice the bytes for a moment).
        fileBits.reserveCapacity((Self.maximumBytes + TrigramKeys.count / 8) / 8)
    }

    deinit {
        table.deallocate()
        seen.deallocate()
        marks.deallocate()
    }

    /// Adds the next file, given its folded text (see ``TrigramKeys/forEach(in:ascii:_:)``);
    /// `ascii` as there.
    func add(_ text: UnsafeBufferPointer<UInt8>, ascii: Bool? = nil) {
        precondition(files < span)
        files += 1
        // Locals, not properties, in the loops: a property's every access is checked at run time.
        let seen = seen
        var high: UInt32 = 0
        if ascii ?? TrigramKeys.isASCII(text) {
            Self.markASCII(text, in: seen)
        } else {
            TrigramKeys.forEach(in: text, ascii: false) { key in
                high |= key
                seen[Int(key >> 6)] |= 1 << UInt64(key & 63)
            }
        }
        let table = table
        let marks = marks
        var rows = keys.count
        let scanned = high >> 18 == 0 ? TrigramKeys.count >> 7 : TrigramKeys.count >> 6
        for index in 0..<scanned {
            var found = seen[index]
            guard found != 0 else { continue }
            seen[index] = 0
            repeat {
                let key = index << 6 | found.trailingZeroBitCount
                found &= found &- 1
                var row = Int(table[key]) - 1
                if row < 0 {
                    row = rows
                    rows += 1
                    keys.append(UInt32(key))
                    table[key] = UInt32(rows)
                }
                marks[row >> 6] |= 1 << UInt64(row & 63)
            } while found != 0
        }
        let width = (rows + 63) >> 6
        fileBits.append(contentsOf: UnsafeBufferPointer(start: marks, count: width))
        marks.update(repeating: 0, count: width)
        ends.append(fileBits.count)
    }

    /// Sets the bit of each trigram of `text`, all ASCII, in `seen`: the key of three characters
    /// is their six-bit codes side by side (``TrigramKeys``), so its word in `seen` is the
    /// codes of the first two and its bit the code of the third. Each byte costs a load of its
    /// code and a bit set, with the last two codes carried as the next word.
    @inline(__always)
    private static func markASCII(_ text: UnsafeBufferPointer<UInt8>, in seen: UnsafeMutablePointer<UInt64>) {
        guard text.count >= 3 else { return }
        TrigramKeys.codes.withUnsafeBufferPointer { codes in
            var word = Int(codes[Int(text[0])]) << 6 | Int(codes[Int(text[1])])
            for index in 2..<text.count {
                let code = codes[Int(text[index])]
                seen[word] |= 1 << UInt64(code)
                word = (word << 6 | Int(code)) & 0xFFF
            }
        }
    }

    /// Adds the next file, holding no text (not text, or unread): its number is kept, bare.
    func skip() {
        precondition(files < span)
        files += 1
        ends.append(fileBits.count)
    }

    /// Every trigram's row, encoded, in key order.
    func rows() -> [Row] {
        let used = Postings.words(span: files)
        var rows: [Row] = []
        rows.reserveCapacity(keys.count)
        // Where each file's bitmap starts and ends, padded to whole words of files (a file past
        // the last starts and ends at 0).
        var bounds = [Int](repeating: 0, count: 2 * used * 64)
        for file in 0..<files {
            bounds[2 * file] = file == 0 ? 0 : ends[file - 1]
            bounds[2 * file + 1] = ends[file]
        }
        // 64 rows at a time: row `r`'s words (each a word of 64 files) are at `r * used`.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64 * used + 64) { scratch in
            let matrix = UnsafeMutableBufferPointer(rebasing: scratch[0..<(64 * used)])
            let block = UnsafeMutableBufferPointer(rebasing: scratch[(64 * used)...])
            fileBits.withUnsafeBufferPointer { fileBits in
                bounds.withUnsafeBufferPointer { bounds in
                    for rowWord in 0..<((keys.count + 63) >> 6) {
                        for fileWord in 0..<used {
                            var any: UInt64 = 0
                            for place in 0..<64 {
                                let file = fileWord << 6 | place
                                let index = bounds[2 * file] + rowWord
                                let value = index < bounds[2 * file + 1] ? fileBits[index] : 0
                                block[place] = value
                                any |= value
                            }
                            if any != 0 { Self.transpose(block) }
                            for row in 0..<64 { matrix[row * used + fileWord] = any != 0 ? block[row] : 0 }
                        }
                        for row in 0..<min(64, keys.count - rowWord << 6) {
                            let bitmap = UnsafeBufferPointer(
                                rebasing: matrix[(row * used)..<(row * used + used)])
                            let count = bitmap.reduce(0) { $0 + $1.nonzeroBitCount }
                            rows.append(
                                Row(
                                    key: keys[rowWord << 6 | row], count: count,
                                    data: Postings.encode(bitmap, count: count)))
                        }
                    }
                }
            }
        }
        rows.sort { $0.key < $1.key }
        return rows
    }

    /// Transposes 64 words as a 64 by 64 matrix of bits: bit `j` of word `i` becomes bit `i` of
    /// word `j`. Halves swap their off-diagonal quarters, then the quarters', down to single bits.
    static func transpose(_ block: UnsafeMutableBufferPointer<UInt64>) {
        precondition(block.count == 64)
        var width = 32
        var mask: UInt64 = 0x0000_0000_FFFF_FFFF
        while width != 0 {
            var start = 0
            while start < 64 {
                for index in start..<(start + width) {
                    let swapped = (block[index] >> UInt64(width) ^ block[index + width]) & mask
                    block[index] ^= swapped << UInt64(width)
                    block[index + width] ^= swapped
                }
                start += 2 * width
            }
            width >>= 1
            mask ^= mask << UInt64(width)
        }
    }

    /// Empties the builder for a segment of up to `span` files.
    func reset(span: Int) {
        precondition(span > 0 && span <= Self.maximumSpan)
        for key in keys { table[Int(key)] = 0 }
        keys.removeAll(keepingCapacity: true)
        fileBits.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        files = 0
        self.span = span
    }
}
