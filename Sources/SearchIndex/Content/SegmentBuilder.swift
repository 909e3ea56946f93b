/// Builds one segment of the content index in memory: for each trigram, which of the segment's
/// files (numbered from 0 in the order they are added) hold it. Each trigram met gets a row of
/// bits, one a file; ``rows()`` gives them encoded (see ``Postings``), ready to be kept.
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
    /// How many trigrams have rows: what the builder's memory grows with (a row is `span` bits).
    var trigrams: Int { keys.count }

    /// The bytes the rows take at `span` bits each, after a file of `size` bytes were added at
    /// worst (each of its bytes starting a trigram not met before). Room is made for up to 8,191
    /// rows more than there are.
    func rowBytes(adding size: Int = 0) -> Int {
        min(keys.count + size, TrigramKeys.count) * words * 8
    }

    /// The widest span, up to `span`, at which a file of `size` bytes fits in `limit` bytes of rows
    /// (64 files or `span`, whichever is less, when none does).
    static func span(fitting size: Int, within limit: Int, atMost span: Int) -> Int {
        let words = max(1, limit / (max(1, min(size, TrigramKeys.count)) * 8))
        return max(1, min(span, words * 64, maximumSpan))
    }

    private var words: Int
    /// Key → row number + 1 (low 20 bits; 0: no row yet) and the last file that set the row's
    /// bit (high 12 bits: a trigram again in the same file costs this one look). 2 MiB.
    private let table: UnsafeMutablePointer<UInt32>
    private var keys: [UInt32] = []
    /// Rows there is memory for, and columns of 64 files each.
    private var rowCapacity = 0
    private var columns = 0
    /// Column-major: word `w` of row `r` is at `w * rowCapacity + r`, so the words one file sets
    /// lie together (a row a trigram, 40,000 rows: 320 KB) and stay in the cache.
    private var bits: UnsafeMutablePointer<UInt64>

    /// The most files a builder's segment holds (the table keeps 12 bits of a file's number).
    static let maximumSpan = 4096
    /// Rows kept room for across a reset (a segment of generated prose meets about 30,000).
    private static let keptRows = 65_536

    /// A builder for segments of up to `span` files.
    init(span: Int) {
        precondition(span > 0 && span <= Self.maximumSpan)
        self.span = span
        words = Postings.words(span: span)
        table = .allocate(capacity: TrigramKeys.count)
        table.initialize(repeating: 0, count: TrigramKeys.count)
        bits = .allocate(capacity: 0)
    }

    deinit {
        table.deallocate()
        bits.deallocate()
    }

    /// Adds the next file, given its folded text (see ``TrigramKeys/forEach(in:_:)``).
    func add(_ text: UnsafeBufferPointer<UInt8>) {
        precondition(files < span)
        let file = Int32(files)
        files += 1
        // Locals, not properties, in the loop: a property's every access is checked at run time.
        let table = table
        let word = Int(file) >> 6
        let bit: UInt64 = 1 << UInt64(file & 63)
        var column = bits + word * rowCapacity
        let mark = UInt32(file) << 20
        TrigramKeys.forEach(in: text) { key in
            let entry = table + Int(key)
            let found = entry.pointee
            var row = Int(found & 0xF_FFFF) - 1
            if row < 0 {
                row = newRow(key)
                column = bits + word * rowCapacity
            } else if found & 0xFFF0_0000 == mark {
                return
            }
            entry.pointee = mark | UInt32(row + 1)
            column[row] |= bit
        }
    }

    /// Adds the next file, holding no text (not text, or unread): its number is kept, bare.
    func skip() {
        precondition(files < span)
        files += 1
    }

    /// Every trigram's row, encoded, in key order.
    func rows() -> [Row] {
        let used = Postings.words(span: files)
        var bitmap = [UInt64](repeating: 0, count: used)
        return keys.indices.sorted { keys[$0] < keys[$1] }.map { row in
            var count = 0
            for word in 0..<used {
                bitmap[word] = bits[word * rowCapacity + row]
                count += bitmap[word].nonzeroBitCount
            }
            return Row(
                key: keys[row], count: count,
                data: bitmap.withUnsafeBufferPointer { Postings.encode($0, count: count) })
        }
    }

    /// Empties the builder for a segment of up to `span` files.
    func reset(span: Int) {
        precondition(span > 0 && span <= Self.maximumSpan)
        for key in keys { table[Int(key)] = 0 }
        for word in 0..<columns { (bits + word * rowCapacity).update(repeating: 0, count: keys.count) }
        keys.removeAll(keepingCapacity: true)
        files = 0
        self.span = span
        words = Postings.words(span: span)
        // Memory follows the new span: fewer columns are given back, and rows made room for by
        // one large file are not kept past what a usual segment needs.
        if words != columns || rowCapacity > Self.keptRows {
            regrow(rows: min(rowCapacity, Self.keptRows), columns: words)
        }
    }

    /// Makes room for `rows` rows of `columns` words, keeping what is set.
    private func regrow(rows: Int, columns newColumns: Int) {
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: rows * newColumns)
        grown.initialize(repeating: 0, count: rows * newColumns)
        for word in 0..<min(columns, newColumns) {
            (grown + word * rows).update(from: bits + word * rowCapacity, count: keys.count)
        }
        bits.deallocate()
        bits = grown
        columns = newColumns
        rowCapacity = rows
    }

    private func newRow(_ key: UInt32) -> Int {
        let row = keys.count
        if row == rowCapacity {
            // By 8,192 rows, not doubling: a segment of prose meets about 30,000 trigrams, and
            // room for 65,536 would be 16 MiB more at 4,096 files a row.
            regrow(rows: min(rowCapacity + 8192, TrigramKeys.count), columns: max(columns, words))
        }
        keys.append(key)
        return row
    }
}
