import Dispatch

extension NameGrams {
    /// The best hits for a one-word query of three bytes or more, scattered (subsequence)
    /// matches as well as substrings, reading the names by how many of the query's pair buckets
    /// list them, most first; `nil` for a query of several words or fewer bytes, or one whose
    /// pairs fall in 16 buckets or more.
    ///
    /// A scattered match of a query of `m` bytes with `g` gaps (bytes of the name between its
    /// matched letters) scores at most 1,000 less its length (at least `m + g`) less 10 for each
    /// gap (``NameMatcher``). A name that lacks one of the query's pairs has a gap where that
    /// pair stands in the query. So a name listed in `h` of the query's buckets has as many gaps
    /// at least as the query has pairs not covered by `h` buckets, and once the best `limit`
    /// hits score more than such a name could, it and every name listed in fewer buckets are
    /// passed by. For `rprtmd` over a million names, the few thousand names holding two of its
    /// pairs (the best hits, such as `test_report.md`, have three gaps) end the reading.
    ///
    /// How many buckets list each name is counted in four bit planes (a bit for each name in
    /// each), a bitmap's words at a time; the names of a band are the bits whose planes spell
    /// its count. The names no bucket lists are read last, folder by folder, if at all.
    ///
    /// `inHalves` reads the bands of the first half of the folders and of the second on two
    /// threads at once (the counting is done once, before, its two halves of the words on two
    /// threads too): the caller asks for it when no other search runs and a second core would
    /// otherwise idle.
    func scatteredHits(
        for query: SearchQuery, matcher: NameMatcher, under folder: String, inHalves: Bool = false
    ) -> [TopHits.Candidate]? {
        let text = matcher.query
        guard matcher.words.isEmpty, text.count >= 3 else { return nil }
        // Each of the query's buckets, and at how many of the query's places its pairs stand.
        var places: [Int: Int] = [:]
        for index in 1..<text.count {
            places[Self.bucket(text[index - 1], text[index], bits: bucketBits), default: 0] += 1
        }
        let buckets = places.keys.sorted()
        guard buckets.count < 1 << Self.planeCount else { return nil }
        // The most places `held` buckets can stand for: the buckets with the most places first.
        let covered = places.values.sorted(by: >).reduce(into: [0]) { $0.append($0[$0.count - 1] + $1) }
        let words = (names + 63) / 64
        var planes = [UInt64](repeating: 0, count: words * Self.planeCount)
        var scratch = [UInt64](repeating: 0, count: words)
        // Counted in two halves of the words at once when the reading is too: each thread
        // writes only its own words of the planes and of the scratch.
        let halves = inHalves && words >= 2 ? [0..<(words / 2), (words / 2)..<words] : [0..<words]
        withPostings { postings in
            planes.withUnsafeMutableBufferPointer { planes in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    let shared = SharedCounts(planes: planes, scratch: scratch, postings: postings)
                    @Sendable func count(_ range: Range<Int>) {
                        for bucket in buckets {
                            var list = cursor(bucket)
                            list.count(
                                into: shared.planes, scratch: shared.scratch, words: words,
                                planeCount: Self.planeCount, from: shared.postings, within: range)
                        }
                    }
                    if halves.count == 2 {
                        DispatchQueue.concurrentPerform(iterations: 2) { count(halves[$0]) }
                    } else {
                        count(halves[0])
                    }
                }
            }
        }
        // The reading, in two halves at once when asked: each half (a run of whole folders)
        // keeps its own best hits, and the best of both are one reading's (the order is total;
        // a name that cannot enter its half's best cannot enter the best of both).
        let folders = order.folders
        let middle = inHalves ? order.starts.firstIndex { Int($0) >= names / 2 } ?? folders.count : nil
        guard let middle, middle > 0, middle < folders.count else {
            return planes.withUnsafeBufferPointer { planes in
                readBands(
                    of: query, matcher: matcher, under: folder, folders: 0..<folders.count, planes: planes,
                    buckets: buckets.count, covered: covered, floor: nil)
            }
        }
        let counted = planes
        let floor = ScoreFloor(limit: query.limit)
        return TopHits.best(of: (0..<middle, middle..<folders.count), limit: query.limit) { part in
            counted.withUnsafeBufferPointer { planes in
                readBands(
                    of: query, matcher: matcher, under: folder, folders: part, planes: planes,
                    buckets: buckets.count, covered: covered, floor: floor)
            }
        }
    }

    /// The best hits among the names of `folders` (places in the name order's folders), read
    /// by how many buckets list them as counted in `planes`, most first: bands of `buckets`
    /// buckets down to one, then the names no bucket lists. `covered[h]` is how many of the
    /// query's pairs `h` buckets can stand for at most. Every hit taken here is offered to
    /// `floor` (shared with the other half), and what could not reach it is passed by unread.
    private func readBands(
        of query: SearchQuery, matcher: NameMatcher, under folder: String, folders range: Range<Int>,
        planes: UnsafeBufferPointer<UInt64>, buckets: Int, covered: [Int], floor: ScoreFloor?
    ) -> [TopHits.Candidate] {
        let text = matcher.query
        let pairs = text.count - 1
        let words = (names + 63) / 64
        let folders = order.folders
        let starts = order.starts
        let numbers = Int(starts[range.lowerBound])..<Int(starts[range.upperBound])
        let mask = matcher.mask
        return text.withUnsafeBufferPointer { text in
            lengths.withUnsafeBufferPointer { lengths in
                var gathering = NameGathering(query: query, text: text, folder: folder, floor: floor)
                let scope = gathering.scope
                for held in stride(from: buckets, through: 1, by: -1) {
                    let gaps = pairs - covered[held]
                    if gaps > 0, let lowest = gathering.lowestKept(),
                        !Self.mayEnter(lowest, length: text.count, gaps: gaps)
                    {
                        return gathering.top.sorted()
                    }
                    // The band's names, shortest first (sorted by counting): a scattered
                    // match of a longer name scores less, so the band ends at the first
                    // length that could not enter. Only a name holding every pair (no gap
                    // to count on) may be a substring, which scores by where it stands.
                    let minimum = gathering.minimum
                    let admitted = (0..<256).map { length in
                        NameMatcher.mayReach(minimum, count: length, length: text.count)
                            && (gaps == 0
                                || NameMatcher.mayScatter(minimum, count: length, missingPairs: gaps))
                    }
                    let band = Self.band(
                        held, of: planes, words: words, numbers: numbers, lengths: lengths, admitted: admitted
                    )
                    var starts = [Int](repeating: 0, count: 257)
                    for number in band { starts[Int(lengths[Int(number)]) + 1] += 1 }
                    for length in 0..<256 { starts[length + 1] += starts[length] }
                    var sorted = [UInt32](repeating: 0, count: band.count)
                    for number in band {
                        let length = Int(lengths[Int(number)])
                        sorted[starts[length]] = number
                        starts[length] += 1
                    }
                    for (position, number) in sorted.enumerated() {
                        let length = Int(lengths[Int(number)])
                        if gaps > 0
                            && !NameMatcher.mayScatter(
                                gathering.minimum, count: length, missingPairs: gaps)
                        {
                            break
                        }
                        // Its record, summary and ends are in cache by now, and its bytes on the way.
                        askAhead(in: sorted, after: position, mask: mask)
                        let place = order.place(of: number)
                        let record = folders[place.folder]
                        guard record.masks[place.index] & mask == mask, scope.looks(in: record) else {
                            continue
                        }
                        gathering.consider(place.index, in: record, gapsAtLeast: gaps)
                    }
                }
                // The names no bucket lists lack every pair of the query: folder by folder,
                // passing by the folders that lack one of its letters.
                if let lowest = gathering.lowestKept(),
                    !Self.mayEnter(lowest, length: text.count, gaps: pairs)
                {
                    return gathering.top.sorted()
                }
                for folderIndex in range {
                    let record = folders[folderIndex]
                    guard record.anyMask & mask == mask && scope.looks(in: record) else { continue }
                    let first = Int(starts[folderIndex])
                    record.masks.withUnsafeBufferPointer { masks in
                        for index in 0..<masks.count where masks[index] & mask == mask {
                            let number = first + index
                            var listed: UInt64 = 0
                            for plane in 0..<Self.planeCount {
                                listed |= planes[plane * words + (number >> 6)]
                            }
                            guard listed & (1 << UInt64(number & 63)) == 0 else { continue }
                            gathering.consider(index, in: record, gapsAtLeast: pairs)
                        }
                    }
                }
                return gathering.top.sorted()
            }
        }
    }

    /// Asks memory for what reading the names of `sorted` after `position` will touch, each
    /// step as far ahead as ``NameOrder`` says.
    @inline(__always)
    private func askAhead(in sorted: [UInt32], after position: Int, mask: UInt64) {
        let count = sorted.count
        if position + NameOrder.recordDistance < count {
            order.askForRecord(of: sorted[position + NameOrder.recordDistance])
        }
        if position + NameOrder.endsDistance < count {
            order.askForEnds(of: sorted[position + NameOrder.endsDistance])
        }
        if position + NameOrder.bytesDistance < count {
            order.askForBytes(of: sorted[position + NameOrder.bytesDistance], mask: mask)
        }
    }

    /// The numbers among `numbers` of the names counted `held` times in `planes` (each plane's
    /// bit as the count's) whose length in `lengths` is `admitted` (by length: a name too long
    /// to score enough is left out here, before the band is sorted), ascending.
    private static func band(
        _ held: Int, of planes: UnsafeBufferPointer<UInt64>, words: Int, numbers range: Range<Int>,
        lengths: UnsafeBufferPointer<UInt8>, admitted: [Bool]
    ) -> [UInt32] {
        var numbers: [UInt32] = []
        admitted.withUnsafeBufferPointer { admitted in
            for index in (range.lowerBound >> 6)..<((range.upperBound + 63) >> 6) {
                var bits = ~UInt64(0)
                for plane in 0..<planeCount {
                    let word = planes[plane * words + index]
                    bits &= held & (1 << plane) != 0 ? word : ~word
                }
                while bits != 0 {
                    let number = index << 6 | bits.trailingZeroBitCount
                    if range.contains(number) && admitted[Int(lengths[number])] {
                        numbers.append(UInt32(number))
                    }
                    bits &= bits &- 1
                }
            }
        }
        return numbers
    }

    /// How many bit planes count the buckets listing a name: up to 15 buckets.
    static let planeCount = 4

    /// Whether a scattered match of a query of `length` bytes with `gaps` gaps at least could
    /// still score `lowest`: its letters span `length + gaps` bytes at least.
    static func mayEnter(_ lowest: Int, length: Int, gaps: Int) -> Bool {
        NameMatcher.mayScatter(lowest, count: length + gaps, missingPairs: gaps)
    }
}
