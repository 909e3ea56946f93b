import Synchronization

/// Which names hold each pair of adjacent folded bytes (a bigram): a query found inside names
/// (`eport` in `Report 2.pdf`) visits only the names holding its rarest pair, not every name,
/// and a query of scattered letters (`rprtmd`) only the names holding most of its pairs.
///
/// A name that holds a query as a substring holds every pair of the query, so the names listed
/// under any one of them include every substring match. Each listed name is then scored as a
/// scan scores it. Substring matches outrank every scattered (subsequence) match (4,001 or more
/// against at most 999: see ``NameMatcher``), so when at least `limit` names admitted by the
/// query hold it as a substring, the best `limit` hits are all among the listed names and the
/// catalog need not be scanned (``substringHits(for:matcher:under:)``). With fewer (a rare
/// query, or a scattered one such as `rprtmd`), ``scatteredHits(for:matcher:under:)`` reads the
/// names by how many of the query's pairs they hold, most first: each pair a name lacks is a gap
/// of a scattered match, so past a point no name holding fewer can enter.
///
/// Layout: names are numbered in catalog order (folder by folder), pairs are hashed into buckets
/// (a collision only adds names that fail the scoring; ``bucketBits(forNames:)`` says how many),
/// all buckets' lists back to back in one byte array. A list of more than one name in eight is a
/// bitmap, a bit for each name (``isDense(_:)``); a shorter one lists its names as ascending
/// numbers stored as gaps, seven bits a byte (most gaps take one byte). Each is as small as it
/// can be that way: a pair as common as `re` or `.m` is in a good share of all names. Built off
/// the request path from one catalog value, beside its ``NameOrder``, and used only with that
/// same value.
final class NameGrams: Sendable {
    /// The catalog's names in order (its folders, their first numbers, their depths): its runs
    /// are the prefixes and the names holding a query one byte in.
    let order: NameOrder
    /// The size in bytes of the shortest list from which a query is read in bands.
    private let bandsFrom: UInt32
    /// Where each bucket's list begins in ``postings``, then where the last one ends.
    private let offsets: [UInt32]
    /// Which buckets' lists are bitmaps (a bit for each bucket).
    private let dense: [UInt64]
    /// Every bucket's list of names: a bitmap of as many bits as there are names, rounded up to
    /// whole 64-bit words (bit `n % 8` of byte `n / 8` for name `n`), or ascending numbers, each
    /// as its gap from the one before (the first from -1), little-endian groups of seven bits
    /// with the high bit on all but the last.
    private let postings: [UInt8]
    /// How many names are numbered.
    let names: Int
    /// Each name's folded length in bytes (255 for longer ones), by number: a name read from
    /// the lists is passed by on its length, when it could not score enough, without reading
    /// its folder (a million names: a megabyte).
    let lengths: [UInt8]
    /// How many bits of a pair's hash pick its bucket.
    let bucketBits: UInt32
    /// The first folder (a place in the order's folders) of the second half a scattered query
    /// is read in: the first whose names start at the middle name or after it.
    let halfwayFolder: Int
    /// The first word (of 64 names) of that half: where ``halfwayFolder`` begins, rounded down.
    let halfwayWord: Int
    /// For each list of gaps of ``bandsFrom`` bytes or more, where its first name from
    /// ``halfwayWord`` on is written and the number before it plus one: three numbers a list
    /// (its bucket, ascending, then those two). The second half of a scattered query is counted
    /// from there, not decoded from the list's start; a shorter list is quick to decode.
    private let halfway: [UInt32]
    /// The word-start marks last made, for two first bytes at most, newest first (see
    /// ``wordStartMarks(of:)``): a person typing a query sends one search a letter, each with
    /// the same first byte, and the marks depend on nothing else. A bit a name: 125 KiB each
    /// for a million names.
    private let recentMarks = Mutex<[(first: UInt8, marks: [UInt64])]>([])

    /// The buckets for `names` names: between 2^10 and 2^14. Names hold a few thousand distinct
    /// pairs at most (letters, digits and punctuation, and the bytes of other scripts), so more
    /// buckets than that would stay empty; a small folder's hold a few hundred.
    static func bucketBits(forNames names: Int) -> UInt32 {
        let needed = UInt32(Int.bitWidth - max(names, 1).leadingZeroBitCount) + 1
        return min(max(needed, 10), 14)
    }

    /// Lists the pairs of every name of `order`'s folders (off the request path: see
    /// ``NameIndex``). Lists of fewer than `bandsFrom` bytes are read whole (a test sets 0 to
    /// read every list in bands).
    init(_ order: NameOrder, bandsFrom: UInt32 = bandedListBytes) {
        self.order = order
        self.bandsFrom = bandsFrom
        let folders = order.folders
        let total = order.starts[order.starts.count - 1]
        names = Int(total)
        let bits = Self.bucketBits(forNames: Int(total))
        bucketBits = bits
        let bitmapBytes = UInt32((Int(total) + 63) / 64 * 8)

        // Two passes over the same pairs: the first counts each bucket's names and sizes its
        // list, the second writes it, so the lists are built in place without a growing array
        // per bucket.
        let buckets = 1 << Int(bits)
        var offsets = [UInt32](repeating: 0, count: buckets + 1)
        var counts = [UInt32](repeating: 0, count: buckets)
        var last = [UInt32](repeating: 0, count: buckets)  // the last number listed, plus one
        Self.forEachPair(of: folders, bits: bits) { number, bucket in
            let next = number + 1
            guard last[bucket] != next else { return }  // already listed for this name
            offsets[bucket] += UInt32(Self.encodedSize(next - last[bucket]))
            counts[bucket] += 1
            last[bucket] = next
        }
        var dense = [UInt64](repeating: 0, count: (buckets + 63) / 64)
        var sum: UInt32 = 0
        for bucket in 0..<buckets {
            var size = offsets[bucket]
            if UInt64(counts[bucket]) * 8 > UInt64(total) {
                dense[bucket >> 6] |= 1 << UInt64(bucket & 63)
                size = bitmapBytes
            }
            offsets[bucket] = sum
            sum += size
        }
        offsets[buckets] = sum
        var postings = [UInt8](repeating: 0, count: Int(sum))
        var cursors = Array(offsets[0..<buckets])
        for bucket in 0..<buckets { last[bucket] = 0 }
        let middle = order.starts.firstIndex { Int($0) >= Int(total) / 2 } ?? folders.count
        halfwayFolder = middle
        halfwayWord = Int(order.starts[min(middle, folders.count)]) >> 6
        let halfwayNumber = UInt32(halfwayWord << 6)
        var halfway = [UInt32](repeating: UInt32.max, count: 2 * buckets)  // by bucket, for now
        postings.withUnsafeMutableBufferPointer { postings in
            Self.forEachPair(of: folders, bits: bits) { number, bucket in
                let next = number + 1
                guard last[bucket] != next else { return }
                if dense[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0 {
                    postings[Int(offsets[bucket]) + Int(number >> 3)] |= 1 << UInt8(number & 7)
                    last[bucket] = next
                    return
                }
                if number >= halfwayNumber && halfway[2 * bucket] == UInt32.max {
                    halfway[2 * bucket] = cursors[bucket]
                    halfway[2 * bucket + 1] = last[bucket]
                }
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
        // Kept for the long lists of gaps only; one with no name from halfway on is read
        // from its end there.
        var kept: [UInt32] = []
        for bucket in 0..<buckets
        where !(dense[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0)
            && offsets[bucket + 1] - offsets[bucket] >= max(bandsFrom, 1)
        {
            let found = halfway[2 * bucket] != UInt32.max
            kept += [
                UInt32(bucket), found ? halfway[2 * bucket] : offsets[bucket + 1],
                found ? halfway[2 * bucket + 1] : last[bucket],
            ]
        }
        self.halfway = kept
        self.offsets = offsets
        self.dense = dense
        self.postings = postings
        var lengths: [UInt8] = []
        lengths.reserveCapacity(Int(total))
        for record in folders {
            var start: UInt32 = 0
            for end in record.foldedEnds {
                lengths.append(UInt8(min(end - start, 255)))
                start = end
            }
        }
        self.lengths = lengths
    }

    /// How many bytes the lists take, with their offsets (reported in the log).
    var byteCount: Int {
        postings.count + offsets.count * 4 + halfway.count * 4 + dense.count * 8 + lengths.count
    }

    /// Whether `bucket`'s list is a bitmap.
    @inline(__always)
    func isDense(_ bucket: Int) -> Bool { dense[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0 }

    /// A reader of `bucket`'s list, from its first name.
    func cursor(_ bucket: Int) -> ListCursor {
        ListCursor(start: Int(offsets[bucket]), end: Int(offsets[bucket + 1]), dense: isDense(bucket))
    }

    /// A reader of `bucket`'s list from the first name of word `word` on, or from before it:
    /// from halfway through a list of gaps when `word` is at ``halfwayWord`` or later.
    func cursor(_ bucket: Int, fromWord word: Int) -> ListCursor {
        guard word >= halfwayWord, !isDense(bucket) else { return cursor(bucket) }
        // A binary search among the long lists' buckets.
        var low = 0
        var high = halfway.count / 3
        while low < high {
            let middle = (low + high) / 2
            if Int(halfway[3 * middle]) < bucket { low = middle + 1 } else { high = middle }
        }
        guard low < halfway.count / 3, Int(halfway[3 * low]) == bucket else { return cursor(bucket) }
        return ListCursor(
            start: Int(halfway[3 * low + 1]), end: Int(offsets[bucket + 1]), dense: false,
            previous: halfway[3 * low + 2])
    }

    /// Lends the lists to `body`, for ``ListCursor/next(in:)``.
    func withPostings<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        postings.withUnsafeBufferPointer(body)
    }

    /// The best hits for `query` when at least `query.limit` names it admits hold the matcher's
    /// text as a substring; `nil` when fewer do (then the scattered matches fill the rest: see
    /// ``scatteredHits(for:matcher:under:)``), or when the query is not one word of three bytes
    /// or more.
    ///
    /// The names are read in bands of score, so that a common query stops reading once the best
    /// are gathered. A name holds the query first either at its start (a prefix: 7,001 or more),
    /// at a word start (after a byte that is neither a letter nor a digit: 5,001–5,999), one
    /// byte in (4,999) or further in (4,998 or less). The prefixes are a run of the name order,
    /// and so are the names holding it one byte in (a run for each first byte). A word start
    /// is a pair of the lists: a separator and the query's first byte. So the prefixes, the
    /// names marked by those lists and the names holding the query one byte in are scored
    /// first; the rest of the rarest pair's list then only needs reading where a name
    /// scoring 4,998 could still enter, which for a common query is nowhere.
    func substringHits(for query: SearchQuery, matcher: NameMatcher, under folder: String) -> TopHits? {
        let text = matcher.query
        guard matcher.words.isEmpty, text.count >= 3 else { return nil }
        // The rarest pair's list is the shortest to read (a bitmap is the longest: it is one
        // because its pair is in more than one name in eight).
        var bucket = 0
        var shortest = UInt32.max
        for index in 1..<text.count {
            let candidate = Self.bucket(text[index - 1], text[index], bits: bucketBits)
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
            let scope = gathering.scope
            // The prefixes.
            for number in order.numbers(startingWith: Array(text)) where banded {
                let place = order.place(of: number)
                let record = folders[place.folder]
                if scope.looks(in: record) { gathering.consider(place.index, in: record) }
            }
            // The names holding the query one byte in, unmarked (a marked one is read with the
            // list below), in the order of their folded bytes: each scores 4,999 (a prefix among
            // them was offered already). So once one at the cut-off's depth comes after the
            // cut-off by folded name, so do all the rest at that depth or deeper, until the
            // next cut: they are passed by without reading their names, and a block of the
            // order whose names all lie too deep to enter, or that deep or deeper, whole.
            var passed: (cuts: Int, depth: Int)?
            let oneIn = Self.bestUnmarked + 1
            for run in banded ? order.positions(holdingAtSecondByte: Array(text)) : [] {
                for block in order.blocks(of: run) {
                    let shallowest = order.shallowestDepth(around: block.lowerBound)
                    guard gathering.top.mayTake(score: oneIn, depth: shallowest) else { continue }
                    if let passed, passed.cuts == gathering.top.cuts, shallowest >= passed.depth { continue }
                    for number in order.numbers(at: block) where !Self.isMarked(number, in: marks) {
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
                        } else if scope.looks(in: record) {
                            gathering.consider(place.index, in: record, below: markedBelow)
                        }
                    }
                }
            }

            // When no prefix and no name one byte in counted, the bands spared nothing: the list
            // is read whole, as a short one is.
            if gathering.admitted == 0 {
                marks = []
                markedBelow = .max
            }
            // The rarest pair's list: its marked names, and the others where they could still enter.
            var list = cursor(bucket)
            var folderIndex = -1
            postings.withUnsafeBufferPointer { postings in
                var pending = list.next(in: postings)
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
                        pending = list.next(in: postings)
                        guard let next = pending else { break folders }
                        guard next < folderEnd else { continue folders }
                        number = next
                    }
                    // The record is lent, not counted (see ``NameOrder/withRecord(_:_:)``).
                    guard order.withRecord(folderIndex, { scope.looks(in: $0) }) else {
                        while let next = pending, next < folderEnd { pending = list.next(in: postings) }
                        continue
                    }
                    // The folder's names are read with its arrays lent once.
                    order.withRecord(folderIndex) { record in
                        record.folded.withUnsafeBufferPointer { folded in
                            record.foldedEnds.withUnsafeBufferPointer { ends in
                                while true {
                                    // A prefix was offered first, and so was an unmarked name holding
                                    // the query one byte in (it scores 4,999).
                                    let marked = Self.isMarked(number, in: marks)
                                    if marked || gathering.top.mayTake(score: Self.bestUnmarked, depth: depth)
                                    {
                                        let index = Int(number - folderStart)
                                        let nameEnd = Int(ends[index])
                                        let nameStart = index == 0 ? 0 : Int(ends[index - 1])
                                        gathering.consider(
                                            UnsafeBufferPointer(rebasing: folded[nameStart..<nameEnd]),
                                            at: index,
                                            in: record, below: marked ? markedBelow : oneIn)
                                    }
                                    pending = list.next(in: postings)
                                    guard let next = pending, next < folderEnd else { return }
                                    number = next
                                }
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

    /// The best an unmarked name of the rarest pair's list can score once the prefixes and
    /// the names holding the query one byte in were offered: the query two bytes in, not at a
    /// word start.
    static let bestUnmarked = 4_998

    /// One bit for each name holding one of the pairs a separator and the first byte of `text`
    /// make (a superset of the names holding `text` at a word start after their first byte: a
    /// bucket also lists the names of the other pairs hashed into it). Kept for the next query
    /// with the same first byte (``recentMarks``): decoding the lists was a tenth of the time of
    /// a query such as `eport`.
    private func wordStartMarks(of text: [UInt8]) -> [UInt64] {
        let first = text[0]
        if let kept = recentMarks.withLock({ $0.first { $0.first == first }?.marks }) { return kept }
        var marks = [UInt64](repeating: 0, count: (names + 63) / 64)
        postings.withUnsafeBufferPointer { postings in
            for separator in UInt8(0)..<0x80 where !NameMatcher.isAlphanumeric(separator) {
                var list = cursor(Self.bucket(separator, first, bits: bucketBits))
                while let number = list.next(in: postings) {
                    marks[Int(number >> 6)] |= 1 << UInt64(number & 63)
                }
            }
        }
        recentMarks.withLock { recent in
            recent.removeAll { $0.first == first }
            recent.insert((first, marks), at: 0)
            if recent.count > 2 { recent.removeLast() }
        }
        return marks
    }

    /// Calls `body` with each name's number and the bucket of each of its pairs, names in order.
    private static func forEachPair(of folders: [FolderRecord], bits: UInt32, _ body: (UInt32, Int) -> Void) {
        var number: UInt32 = 0
        for record in folders {
            record.folded.withUnsafeBufferPointer { folded in
                var start = 0
                for end in record.foldedEnds {
                    let end = Int(end)
                    if end - start >= 2 {
                        for index in (start + 1)..<end {
                            body(number, bucket(folded[index - 1], folded[index], bits: bits))
                        }
                    }
                    start = end
                    number += 1
                }
            }
        }
    }

    /// The bucket of the pair `first`, `second`.
    @inline(__always)
    static func bucket(_ first: UInt8, _ second: UInt8, bits: UInt32) -> Int {
        let key = UInt32(first) << 8 | UInt32(second)
        return Int((key &* 2_654_435_761) >> (32 - bits))
    }

    @inline(__always)
    private static func encodedSize(_ gap: UInt32) -> Int {
        gap < 1 << 7 ? 1 : gap < 1 << 14 ? 2 : gap < 1 << 21 ? 3 : gap < 1 << 28 ? 4 : 5
    }
}
