/// Builds one segment of the content index in memory: for each trigram, which of the segment's
/// files (numbered from 0 in the order they are added) hold it. Each trigram met gets a row;
/// ``rows()`` gives each row's files encoded (see ``Postings``), ready to be kept.
///
/// Files are taken eight at a time, as a group. Each byte of a file sets the file's bit in its
/// trigram's byte of a table of keys (a byte a key, so eight files share it); once the group is
/// whole, each key a file of the group holds, in key order, finds its row and the group keeps
/// that byte for the row: a byte a row met so far. ``rows()`` gathers each row's bytes from the
/// groups, which side by side are the row's bitmap of files.
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
    /// How many trigrams have rows: what the builder's memory grows with (each group of files
    /// keeps a byte a row).
    private(set) var trigrams = 0

    /// The bytes the groups take once the next file, of `size` bytes, is added and its group
    /// kept, at worst: each byte of that group's files a trigram not met before, up to every key.
    func bytes(adding size: Int) -> Int {
        groupBytes.count + min(trigrams + pendingSize + size, TrigramKeys.count)
    }

    /// The bytes the kept groups take.
    var bytes: Int { groupBytes.count }

    /// Files a group holds: a bit each in a byte.
    static let groupSize = 8

    /// Key → row number + 1 (0: no row yet). 2 MiB.
    private let table: UnsafeMutablePointer<UInt32>
    /// One byte a key: bit `j` set when the group's file `j` holds it. Clear between groups;
    /// 512 KiB, of which ASCII files touch the first half.
    private let seen: UnsafeMutableRawPointer
    /// The group's byte for each row, while a group is kept. Clear between groups.
    private let marks: UnsafeMutablePointer<UInt8>
    /// Whether a file of the group being added is not all ASCII (its keys reach past 2^18).
    private var wide = false
    /// How many files the group being added holds so far.
    private var pending = 0
    /// The bytes of the files of the group being added.
    private var pendingSize = 0
    /// Each row's key (``trigrams`` of them). 2 MiB, of which only what is written is the
    /// system's.
    private let keys: UnsafeMutablePointer<UInt32>
    /// The groups' bytes, one after the other, each as long as the rows met by its end.
    private var groupBytes: [UInt8] = []
    /// Where each group's bytes end in ``groupBytes``.
    private var ends: [Int] = []

    /// The most files a builder's segment holds.
    static let maximumSpan = 4096
    /// The most bytes the groups may take: a segment ends before a file that could take them
    /// past this (see ``bytes(adding:)``). A full segment of prose takes 12.8 MiB.
    static let maximumBytes = 16 << 20

    /// A builder for segments of up to `span` files.
    init(span: Int) {
        precondition(span > 0 && span <= Self.maximumSpan)
        self.span = span
        table = .allocate(capacity: TrigramKeys.count)
        table.initialize(repeating: 0, count: TrigramKeys.count)
        seen = .allocate(byteCount: TrigramKeys.count, alignment: 64)
        seen.initializeMemory(as: UInt8.self, repeating: 0, count: TrigramKeys.count)
        marks = .allocate(capacity: TrigramKeys.count)
        marks.initialize(repeating: 0, count: TrigramKeys.count)
        keys = .allocate(capacity: TrigramKeys.count)
        // Room for the most the groups take, made once: the memory is the system's only as it
        // is written, and growing would copy it (twice the bytes for a moment).
        groupBytes.reserveCapacity(Self.maximumBytes + TrigramKeys.count)
    }

    deinit {
        table.deallocate()
        seen.deallocate()
        marks.deallocate()
        keys.deallocate()
    }

    /// Adds the next file, given its folded text (see ``TrigramKeys/forEach(in:ascii:_:)``);
    /// `ascii` as there.
    func add(_ text: UnsafeBufferPointer<UInt8>, ascii: Bool? = nil) {
        precondition(files < span)
        let bit = UInt8(1) << UInt8(pending)
        let seen = seen.assumingMemoryBound(to: UInt8.self)
        if ascii ?? TrigramKeys.isASCII(text) {
            Self.markASCII(text, bit: bit, in: seen)
        } else {
            var high: UInt32 = 0
            TrigramKeys.forEach(in: text, ascii: false) { key in
                high |= key
                seen[Int(key)] |= bit
            }
            if high >> 18 != 0 { wide = true }
        }
        pendingSize += text.count
        files += 1
        pending += 1
        if pending == Self.groupSize { keepGroup() }
    }

    /// Sets `bit` in the byte of each trigram of `text`, all ASCII: the key of three characters
    /// is their six-bit codes side by side (``TrigramKeys``). Each key is made from its three
    /// codes afresh rather than rolled from the last, so that no key waits for the one before.
    @inline(__always)
    private static func markASCII(
        _ text: UnsafeBufferPointer<UInt8>, bit: UInt8, in seen: UnsafeMutablePointer<UInt8>
    ) {
        guard text.count >= 3, let base = text.baseAddress else { return }
        TrigramKeys.codes.withUnsafeBufferPointer { codes in
            let codes = codes.baseAddress.unsafelyUnwrapped
            var first = Int(codes[Int(base[0])]) &<< 12
            var second = Int(codes[Int(base[1])]) &<< 6
            for index in 2..<text.count {
                let third = Int(codes[Int(base[index])])
                seen[first | second | third] |= bit
                first = second &<< 6
                second = third &<< 6
            }
        }
    }

    /// Adds the next file, holding no text (not text, or unread): its number is kept, bare.
    func skip() {
        precondition(files < span)
        files += 1
        pending += 1
        if pending == Self.groupSize { keepGroup() }
    }

    /// Ends the group being added: each key a file of it holds, in key order, gets its row (a
    /// new one if it has none), and the group keeps its byte for each row met so far.
    private func keepGroup() {
        let table = table
        let marks = marks
        let keys = keys
        var rows = trigrams
        let words = (wide ? TrigramKeys.count : TrigramKeys.count >> 1) >> 3
        // The bytes are read and cleared eight at a time, as words (raw loads and stores: the
        // memory is bound to bytes).
        let seen = seen
        func eight(at index: Int) -> UInt64 { seen.load(fromByteOffset: index &<< 3, as: UInt64.self) }
        // Four words (32 keys) at a time: most of a group's keys are not held.
        for quad in stride(from: 0, to: words, by: 4) {
            guard eight(at: quad) | eight(at: quad &+ 1) | eight(at: quad &+ 2) | eight(at: quad &+ 3) != 0
            else {
                continue
            }
            for word in quad..<(quad &+ 4) {
                let value = UInt64(littleEndian: eight(at: word))
                guard value != 0 else { continue }
                seen.storeBytes(of: 0, toByteOffset: word &<< 3, as: UInt64.self)
                // The high bit of each byte that is not 0.
                let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
                var held = ((value & low) &+ low | value) & ~low
                repeat {
                    let shift = held.trailingZeroBitCount &- 7
                    held &= held &- 1
                    let key = word &<< 3 | shift &>> 3
                    var row = Int(table[key]) &- 1
                    if row < 0 {
                        row = rows
                        keys[rows] = UInt32(truncatingIfNeeded: key)
                        rows &+= 1
                        table[key] = UInt32(truncatingIfNeeded: rows)
                    }
                    marks[row] = UInt8(truncatingIfNeeded: value &>> UInt64(shift))
                } while held != 0
            }
        }
        trigrams = rows
        groupBytes.append(contentsOf: UnsafeBufferPointer(start: marks, count: rows))
        marks.update(repeating: 0, count: rows)
        ends.append(groupBytes.count)
        wide = false
        pending = 0
        pendingSize = 0
    }

    /// Every trigram's row, encoded, in key order. It ends the segment: ``reset(span:)`` before
    /// adding more.
    func rows() -> [Row] {
        if pending > 0 { keepGroup() }
        let used = Postings.words(span: files)
        var rows: [Row] = []
        rows.reserveCapacity(trigrams)
        // ``rowsAtATime`` rows at a time: row `r`'s words (each a word of 64 files, 8 groups)
        // are at `r * used`; group `g`'s byte is byte `g % 8` of word `g / 8`. Eight groups'
        // bytes for eight rows are read as eight words and turned (``transposeBytes(_:)``) into
        // the eight rows' words for those groups.
        let across = Self.rowsAtATime
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: across * used + 8) { scratch in
            let matrix = UnsafeMutableBufferPointer(rebasing: scratch[0..<(across * used)])
            let block = UnsafeMutableBufferPointer(rebasing: scratch[(across * used)...])
            groupBytes.withUnsafeBufferPointer { groupBytes in
                ends.withUnsafeBufferPointer { ends in
                    let base = UnsafeRawPointer(groupBytes.baseAddress.unsafelyUnwrapped)
                    // Each group's bytes start and end.
                    var bounds = [Int](repeating: 0, count: 2 * used * 8)
                    for group in 0..<ends.count {
                        bounds[2 * group] = group == 0 ? 0 : ends[group - 1]
                        bounds[2 * group + 1] = ends[group]
                    }
                    for first in stride(from: 0, to: trigrams, by: across) {
                        let count = min(across, trigrams - first)
                        // A word of groups at a time, so that each of its eight groups' bytes for
                        // the rows (eight cache lines side by side) are read in order.
                        for word in 0..<used {
                            for row in stride(from: 0, to: count, by: 8) {
                                var any: UInt64 = 0
                                for place in 0..<8 {
                                    let group = word << 3 | place
                                    let start = bounds[2 * group] + first + row
                                    let end = bounds[2 * group + 1]
                                    var value: UInt64 = 0
                                    if start + 8 <= end {
                                        value = UInt64(
                                            littleEndian: base.loadUnaligned(
                                                fromByteOffset: start, as: UInt64.self))
                                    } else {
                                        // Past the group's end its bytes are 0 (a group ends
                                        // with the rows met by then).
                                        for index in 0..<max(0, end - start) {
                                            value |= UInt64(groupBytes[start + index]) << UInt64(index * 8)
                                        }
                                    }
                                    block[place] = value
                                    any |= value
                                }
                                if any != 0 { Self.transposeBytes(block) }
                                for place in 0..<8 {
                                    matrix[(row + place) * used + word] = block[place]
                                }
                            }
                        }
                        for row in 0..<count {
                            let bitmap = UnsafeBufferPointer(
                                rebasing: matrix[(row * used)..<(row * used + used)])
                            let files = bitmap.reduce(0) { $0 + $1.nonzeroBitCount }
                            rows.append(
                                Row(
                                    key: keys[first + row], count: files,
                                    data: Postings.encode(bitmap, count: files)))
                        }
                    }
                }
            }
        }
        rows.sort { $0.key < $1.key }
        return rows
    }

    /// How many rows ``rows()`` turns at a time: each group's bytes for them, 512 bytes side by
    /// side, are read in order (the processor fetches what follows), and the rows' bitmaps, 256
    /// KiB for a full segment, stay in its cache until they are encoded.
    static let rowsAtATime = 512

    /// Transposes 8 words as an 8 by 8 matrix of bytes: byte `j` of word `i` becomes byte `i`
    /// of word `j` (bytes counted from the lowest). Halves swap their off-diagonal quarters,
    /// then the quarters', down to single bytes.
    static func transposeBytes(_ block: UnsafeMutableBufferPointer<UInt64>) {
        precondition(block.count == 8)
        var width = 4
        var mask: UInt64 = 0x0000_0000_FFFF_FFFF
        while width != 0 {
            let shift = UInt64(width * 8)
            var start = 0
            while start < 8 {
                for index in start..<(start + width) {
                    let swapped = (block[index] >> shift ^ block[index + width]) & mask
                    block[index] ^= swapped << shift
                    block[index + width] ^= swapped
                }
                start += 2 * width
            }
            width >>= 1
            mask ^= mask << UInt64(width * 8)
        }
    }

    /// Empties the builder for a segment of up to `span` files.
    func reset(span: Int) {
        precondition(span > 0 && span <= Self.maximumSpan)
        if pending > 0 {
            // A group not kept: its keys' bytes are cleared as keeping it would have.
            seen.initializeMemory(as: UInt8.self, repeating: 0, count: TrigramKeys.count)
        }
        for row in 0..<trigrams { table[Int(keys[row])] = 0 }
        trigrams = 0
        groupBytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        files = 0
        wide = false
        pending = 0
        pendingSize = 0
        self.span = span
    }
}
