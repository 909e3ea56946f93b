/// Which names hold each run of three folded bytes (a trigram): a query found inside names
/// (`eport` in `Report 2.pdf`) visits only the names holding its rarest trigram, not every name.
///
/// A name that holds a query as a substring holds every trigram of the query, so the names
/// listed under any one of them include every substring match. Each listed name is then scored
/// as a scan scores it. Substring matches outrank every scattered (subsequence) match (4,001 or
/// more against at most 999: see ``NameMatcher``), so when at least `limit` names admitted by the
/// query hold it as a substring, the best `limit` hits are all among the listed names and the
/// catalog need not be scanned. With fewer (a rare query, or a scattered one such as `rprtmd`)
/// only a scan can find the scattered matches that fill the rest, and the caller scans.
///
/// Layout: names are numbered in catalog order (folder by folder), trigrams are hashed into
/// buckets (a collision only adds names that fail the scoring; ``bucketBits(forNames:)`` says how
/// many), and each bucket lists its names as ascending numbers stored as gaps, seven bits a byte
/// (most gaps take one byte), all buckets back to back in one byte array. Built off the request path from one catalog value,
/// beside its ``NameOrder``, and used only with that same value.
final class NameGrams: Sendable {
    /// The catalog's names in order (its folders, their first numbers, their depths): its runs
    /// are the prefixes and the names holding a query one byte in.
    let order: NameOrder
    /// The size in bytes of the shortest list from which a query is read in bands.
    private let bandsFrom: UInt32
    /// Where each bucket's list begins in ``postings``, then where the last one ends.
    private let offsets: [UInt32]
    /// Every bucket's list of names: ascending numbers, each as its gap from the one before
    /// (the first from -1), little-endian groups of seven bits with the high bit on all but the last.
    private let postings: [UInt8]
    /// How many bits of a trigram's hash pick its bucket.
    let bucketBits: UInt32

    /// The buckets for `names` names: about two for each name, between 2^12 and 2^18. A folder of
    /// 10,000 names holds a few thousand distinct trigrams, so 2^18 buckets (a megabyte of
    /// offsets, resident for as long as the server runs) would be mostly empty; 1,000,000 names
    /// hold more than 2^18, and more buckets than that would cost more than they save.
    static func bucketBits(forNames names: Int) -> UInt32 {
        let needed = UInt32(Int.bitWidth - max(names, 1).leadingZeroBitCount) + 1
        return min(max(needed, 12), 18)
    }

    /// Lists the trigrams of every name of `order`'s folders (off the request path: see
    /// ``NameIndex``). Lists of fewer than `bandsFrom` bytes are read whole (a test sets 0 to
    /// read every list in bands).
    init(_ order: NameOrder, bandsFrom: UInt32 = bandedListBytes) {
        self.order = order
        self.bandsFrom = bandsFrom
        let folders = order.folders
        let total = order.starts[order.starts.count - 1]
        let bits = Self.bucketBits(forNames: Int(total))
        bucketBits = bits

        // Two passes over the same trigrams: the first sizes each bucket's list, the second
        // writes it, so the lists are built in place without a growing array per bucket.
        let buckets = 1 << Int(bits)
        var offsets = [UInt32](repeating: 0, count: buckets + 1)
        var last = [UInt32](repeating: 0, count: buckets)  // the last number listed, plus one
        Self.forEachGram(of: folders, bits: bits) { number, bucket in
            let next = number + 1
            guard last[bucket] != next else { return }  // already listed for this name
            offsets[bucket] += UInt32(Self.encodedSize(next - last[bucket]))
            last[bucket] = next
        }
        var sum: UInt32 = 0
        for bucket in 0..<buckets {
            let size = offsets[bucket]
            offsets[bucket] = sum
            sum += size
        }
        offsets[buckets] = sum
        var postings = [UInt8](repeating: 0, count: Int(sum))
        var cursors = Array(offsets[0..<buckets])
        for bucket in 0..<buckets { last[bucket] = 0 }
        postings.withUnsafeMutableBufferPointer { postings in
            Self.forEachGram(of: folders, bits: bits) { number, bucket in
                let next = number + 1
                guard last[bucket] != next else { return }
                var gap = next - last[bucket]
                last[bucket] = next
                var cursor = Int(cursors[bucket])
                while gap >= 0x80 {
                    postings[cursor] = UInt8(truncatingIfNeeded: gap) | 0x80
                    gap >>= 7
                    cursor += 1
                }
                postings[cursor] = UInt8(gap)
                cursors[bucket] = UInt32(cursor + 1)
            }
        }
        self.offsets = offsets
        self.postings = postings
    }

    /// How many bytes the lists take, with their offsets (reported in the log).
    var byteCount: Int { postings.count + offsets.count * 4 }

    /// The best hits for `query` when at least `query.limit` names it admits hold the matcher's
    /// text as a substring; `nil` when fewer do (then only a scan can add the scattered matches),
    /// or when the query is not one word of three bytes or more.
    ///
    /// The names are read in bands of score, so that a common query stops reading once the best
    /// are gathered. A name holds the query first either at its start (a prefix: 7,001 or more),
    /// at a word start (after a byte that is neither a letter nor a digit: 5,001–5,999), one
    /// byte in (4,999) or further in (4,998 or less). The prefixes are a run of the name order,
    /// and so are the names holding it one byte in (a run for each first byte). A word start
    /// is a trigram of the lists: a separator and the query's first two bytes. So the prefixes,
    /// the names marked by those lists and the names holding the query one byte in are scored
    /// first; the rest of the rarest trigram's list then only needs reading where a name
    /// scoring 4,998 could still enter, which for a common query is nowhere.
    func substringHits(for query: SearchQuery, matcher: NameMatcher, under folder: String) -> TopHits? {
        let text = matcher.query
        guard matcher.words.isEmpty, text.count >= 3 else { return nil }
        // The rarest trigram's list is the shortest to read.
        var bucket = 0
        var shortest = UInt32.max
        for index in 2..<text.count {
            let candidate = Self.bucket(text[index - 2], text[index - 1], text[index], bits: bucketBits)
            let size = offsets[candidate + 1] - offsets[candidate]
            if size < shortest {
                shortest = size
                bucket = candidate
            }
        }
        // A short list is read whole, every name as marked: reading it in bands would cost
        // more than it saves (the runs' binary searches, a bit for every name).
        let banded = shortest >= bandsFrom
        var marks = banded ? wordStartMarks(of: text) : []
        var markedBelow = banded ? NameMatcher.bestSubstring + 1 : .max
        let folders = order.folders
        let starts = order.starts
        return text.withUnsafeBufferPointer { text in
            var gathering = NameGathering(query: query, text: text, folder: folder)
            // The prefixes.
            for number in order.numbers(startingWith: Array(text)) where banded {
                let place = order.place(of: number)
                let record = folders[place.folder]
                if gathering.looks(in: record) { gathering.consider(place.index, in: record) }
            }
            // The names holding the query one byte in, unmarked (a marked one is read with the
            // list below), in the order of their folded bytes: each scores 4,999 (a prefix among
            // them was offered already). So once one at the cut-off's depth comes after the
            // cut-off by folded name, so do all the rest at that depth or deeper, until the
            // next cut: they are passed by without reading their names.
            var passed: (cuts: Int, depth: Int)?
            let oneIn = Self.bestUnmarked + 1
            for run in banded ? order.numbers(holdingAtSecondByte: Array(text)) : [] {
                for number in run where !Self.isMarked(number, in: marks) {
                    let place = order.place(of: number)
                    let depth = Int(order.depths[place.folder])
                    guard gathering.top.mayTake(score: oneIn, depth: depth) else { continue }
                    if let passed, passed.cuts == gathering.top.cuts, depth >= passed.depth { continue }
                    let record = folders[place.folder]
                    let follows = record.withFoldedName(at: place.index) {
                        gathering.top.follows(score: oneIn, depth: depth, folded: $0)
                    }
                    if follows {
                        passed = (gathering.top.cuts, depth)
                    } else if gathering.looks(in: record) {
                        gathering.consider(place.index, in: record, below: markedBelow)
                    }
                }
            }

            // When no prefix and no name one byte in counted, the bands spared nothing: the list
            // is read whole, as a short one is.
            if gathering.admitted == 0 {
                marks = []
                markedBelow = .max
            }
            // The rarest trigram's list: its marked names, and the others where they could still enter.
            var position = Int(offsets[bucket])
            let end = Int(offsets[bucket + 1])
            var previous: UInt32 = 0
            var folderIndex = -1
            postings.withUnsafeBufferPointer { postings in
                var pending = Self.decode(postings, at: &position, end: end, after: &previous)
                folders: while let first = pending {
                    // Numbers ascend, so the folders are met in order.
                    repeat { folderIndex += 1 } while starts[folderIndex + 1] <= first
                    let folderStart = starts[folderIndex]
                    let folderEnd = starts[folderIndex + 1]
                    let depth = Int(order.depths[folderIndex])
                    var number = first
                    // Passed by unread: what an unmarked name here could score cannot enter.
                    while !Self.isMarked(number, in: marks)
                        && !gathering.top.mayTake(score: Self.bestUnmarked, depth: depth)
                    {
                        pending = Self.decode(postings, at: &position, end: end, after: &previous)
                        guard let next = pending else { break folders }
                        guard next < folderEnd else { continue folders }
                        number = next
                    }
                    let record = folders[folderIndex]
                    guard gathering.looks(in: record) else {
                        while let next = pending, next < folderEnd {
                            pending = Self.decode(postings, at: &position, end: end, after: &previous)
                        }
                        continue
                    }
                    // The folder's names are read with its arrays lent once.
                    record.folded.withUnsafeBufferPointer { folded in
                        record.foldedEnds.withUnsafeBufferPointer { ends in
                            while true {
                                // A prefix was offered first, and so was an unmarked name holding
                                // the query one byte in (it scores 4,999).
                                let marked = Self.isMarked(number, in: marks)
                                if marked || gathering.top.mayTake(score: Self.bestUnmarked, depth: depth) {
                                    let index = Int(number - folderStart)
                                    let nameEnd = Int(ends[index])
                                    let nameStart = index == 0 ? 0 : Int(ends[index - 1])
                                    gathering.consider(
                                        UnsafeBufferPointer(rebasing: folded[nameStart..<nameEnd]), at: index,
                                        in: record, below: marked ? markedBelow : oneIn)
                                }
                                pending = Self.decode(postings, at: &position, end: end, after: &previous)
                                guard let next = pending, next < folderEnd else { return }
                                number = next
                            }
                        }
                    }
                }
            }
            return gathering.admitted >= query.limit ? gathering.top : nil
        }
    }

    /// Whether `number` is marked (every number is when nothing was: a list read whole).
    @inline(__always)
    private static func isMarked(_ number: UInt32, in marks: [UInt64]) -> Bool {
        marks.isEmpty || marks[Int(number >> 6)] & (1 << UInt64(number & 63)) != 0
    }

    /// The size of the shortest list, in bytes, from which a query is read in bands by default:
    /// about two thousand names.
    static let bandedListBytes: UInt32 = 4_096

    /// The best an unmarked name of the rarest trigram's list can score once the prefixes and
    /// the names holding the query one byte in were offered: the query two bytes in, not at a
    /// word start.
    static let bestUnmarked = 4_998

    /// One bit for each name holding one of the trigrams a separator and the first two bytes
    /// of `text` make (a superset of the names holding `text` at a word start after their first
    /// byte: a bucket also lists the names of the other trigrams hashed into it).
    private func wordStartMarks(of text: [UInt8]) -> [UInt64] {
        var marks = [UInt64](repeating: 0, count: (Int(order.starts[order.starts.count - 1]) + 63) / 64)
        postings.withUnsafeBufferPointer { postings in
            for separator in UInt8(0)..<0x80 where !NameMatcher.isAlphanumeric(separator) {
                let bucket = Self.bucket(separator, text[0], text[1], bits: bucketBits)
                var position = Int(offsets[bucket])
                let end = Int(offsets[bucket + 1])
                var previous: UInt32 = 0
                while let number = Self.decode(postings, at: &position, end: end, after: &previous) {
                    marks[Int(number >> 6)] |= 1 << UInt64(number & 63)
                }
            }
        }
        return marks
    }

    /// The next number of a list, or `nil` at its end.
    @inline(__always)
    private static func decode(
        _ postings: UnsafeBufferPointer<UInt8>, at position: inout Int, end: Int, after previous: inout UInt32
    ) -> UInt32? {
        guard position < end else { return nil }
        var gap: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let byte = postings[position]
            position += 1
            gap |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        previous &+= gap
        return previous - 1
    }

    /// Calls `body` with each name's number and the bucket of each of its trigrams, names in order.
    private static func forEachGram(of folders: [FolderRecord], bits: UInt32, _ body: (UInt32, Int) -> Void) {
        var number: UInt32 = 0
        for record in folders {
            record.folded.withUnsafeBufferPointer { folded in
                var start = 0
                for end in record.foldedEnds {
                    let end = Int(end)
                    if end - start >= 3 {
                        for index in (start + 2)..<end {
                            body(
                                number,
                                bucket(folded[index - 2], folded[index - 1], folded[index], bits: bits))
                        }
                    }
                    start = end
                    number += 1
                }
            }
        }
    }

    @inline(__always)
    private static func bucket(_ first: UInt8, _ second: UInt8, _ third: UInt8, bits: UInt32) -> Int {
        let key = UInt32(first) << 16 | UInt32(second) << 8 | UInt32(third)
        return Int((key &* 2_654_435_761) >> (32 - bits))
    }

    @inline(__always)
    private static func encodedSize(_ gap: UInt32) -> Int {
        gap < 1 << 7 ? 1 : gap < 1 << 14 ? 2 : gap < 1 << 21 ? 3 : gap < 1 << 28 ? 4 : 5
    }
}
