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

    private var words: Int
    /// Key → row number + 1 (low 32 bits) and the last file that set the row's bit (high 32
    /// bits: a trigram again in the same file costs this one look), in pages of 4,096 keys made
    /// when first touched.
    private let pages: UnsafeMutablePointer<UnsafeMutablePointer<UInt64>?>
    private var keys: [UInt32] = []
    /// Rows there is memory for, and columns of 64 files each.
    private var rowCapacity = 0
    private var columns = 0
    /// Column-major: word `w` of row `r` is at `w * rowCapacity + r`, so the words one file sets
    /// lie together (a row a trigram, 40,000 rows: 320 KB) and stay in the cache.
    private var bits: UnsafeMutablePointer<UInt64>

    private static let pageShift = 12
    private static let pageCount = TrigramKeys.count >> pageShift

    /// A builder for segments of up to `span` files.
    init(span: Int) {
        precondition(span > 0 && span <= Postings.maximumSpan)
        self.span = span
        words = Postings.words(span: span)
        pages = .allocate(capacity: Self.pageCount)
        pages.initialize(repeating: nil, count: Self.pageCount)
        bits = .allocate(capacity: 0)
    }

    deinit {
        for index in 0..<Self.pageCount { pages[index]?.deallocate() }
        pages.deallocate()
        bits.deallocate()
    }

    /// Adds the next file, given its folded text (see ``TrigramKeys/forEach(in:_:)``).
    func add(_ text: UnsafeBufferPointer<UInt8>) {
        precondition(files < span)
        let file = Int32(files)
        files += 1
        // Locals, not properties, in the loop: a property's every access is checked at run time.
        let pages = pages
        let word = Int(file) >> 6
        let bit: UInt64 = 1 << UInt64(file & 63)
        var column = bits + word * rowCapacity
        let mark = UInt64(file) << 32
        TrigramKeys.forEach(in: text) { key in
            let page = pages[Int(key) >> Self.pageShift] ?? makePage(Int(key) >> Self.pageShift)
            let entry = page + Int(key) & (1 << Self.pageShift - 1)
            let found = entry.pointee
            var row = Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: found)) - 1
            if row < 0 {
                row = newRow(key)
                column = bits + word * rowCapacity
            } else if found & 0xFFFF_FFFF_0000_0000 == mark {
                return
            }
            entry.pointee = mark | UInt64(row + 1)
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
        precondition(span > 0 && span <= Postings.maximumSpan)
        for key in keys {
            pages[Int(key) >> Self.pageShift]?[Int(key) & (1 << Self.pageShift - 1)] = 0
        }
        for word in 0..<columns { (bits + word * rowCapacity).update(repeating: 0, count: keys.count) }
        keys.removeAll(keepingCapacity: true)
        files = 0
        self.span = span
        words = Postings.words(span: span)
        if words > columns { regrow(rows: rowCapacity, columns: words) }
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

    private func makePage(_ index: Int) -> UnsafeMutablePointer<UInt64> {
        let page = UnsafeMutablePointer<UInt64>.allocate(capacity: 1 << Self.pageShift)
        page.initialize(repeating: 0, count: 1 << Self.pageShift)
        pages[index] = page
        return page
    }

    private func newRow(_ key: UInt32) -> Int {
        let row = keys.count
        if row == rowCapacity { regrow(rows: max(1024, rowCapacity * 2), columns: max(columns, words)) }
        keys.append(key)
        return row
    }
}
