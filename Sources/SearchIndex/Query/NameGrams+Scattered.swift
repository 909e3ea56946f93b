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
    /// `inHalves` counts and reads the first half of the folders and the second on two threads
    /// at once, each half's counts its own (the word where the halves meet is counted by both),
    /// so neither waits for the other between counting and reading: the caller asks for it when
    /// no other search runs and a second core would otherwise idle.
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
        // The reading, in two halves at once when asked: each half (a run of whole folders)
        // counts its own names' buckets and keeps its own best hits, and the best of both are
        // one reading's (the order is total; a name that cannot enter its half's best cannot
        // enter the best of both).
        let folders = order.folders
        let middle = inHalves ? halfwayFolder : nil
        guard let middle, middle > 0, middle < folders.count else {
            return readBands(
                of: query, matcher: matcher, under: folder, folders: 0..<folders.count,
                counts: counts(of: buckets, folders: 0..<folders.count), buckets: buckets.count,
                covered: covered, floor: nil)
        }
        let floor = ScoreFloor(limit: query.limit)
        return TopHits.best(of: (0..<middle, middle..<folders.count), limit: query.limit) { part in
            readBands(
                of: query, matcher: matcher, under: folder, folders: part,
                counts: counts(of: buckets, folders: part), buckets: buckets.count, covered: covered,
                floor: floor)
        }
    }

    /// How many of `buckets` list each name of `folders` (places in the name order's folders).
    private func counts(of buckets: [Int], folders range: Range<Int>) -> BucketCounts {
        let starts = order.starts
        let numbers = Int(starts[range.lowerBound])..<Int(starts[range.upperBound])
        return BucketCounts(
            of: buckets, in: self, words: (numbers.lowerBound >> 6)..<((numbers.upperBound + 63) >> 6))
    }

    /// The best hits among the names of `folders` (places in the name order's folders), read
    /// by how many buckets list them as counted in `counts`, most first: bands of `buckets`
    /// buckets down to one, then the names no bucket lists. `covered[h]` is how many of the
    /// query's pairs `h` buckets can stand for at most. Every hit taken here is offered to
    /// `floor` (shared with the other half), and what could not reach it is passed by unread.
    private func readBands(
        of query: SearchQuery, matcher: NameMatcher, under folder: String, folders range: Range<Int>,
        counts: BucketCounts, buckets: Int, covered: [Int], floor: ScoreFloor?
    ) -> [TopHits.Candidate] {
        let text = matcher.query
        let pairs = text.count - 1
        let words = counts.words
        let folders = order.folders
        let starts = order.starts
        let numbers = Int(starts[range.lowerBound])..<Int(starts[range.upperBound])
        let mask = matcher.mask
        return counts.withPlanes { planes in
            text.withUnsafeBufferPointer { text in
                lengths.withUnsafeBufferPointer { lengths in
                    var gathering = NameGathering(query: query, text: text, folder: folder, floor: floor)
                    let scope = gathering.scope
                    // Which lengths may enter a band, as the best hits stand: only a name holding
                    // every pair (no gap to count on) may be a substring, which scores by where
                    // it stands.
                    func admitted(_ held: Int, minimum: Int) -> [Bool] {
                        let gaps = pairs - covered[held]
                        return (0..<256).map { length in
                            NameMatcher.mayReach(minimum, count: length, length: text.count)
                                && (gaps == 0
                                    || NameMatcher.mayScatter(minimum, count: length, missingPairs: gaps))
                        }
                    }
                    // The bands of two buckets or more in one pass over the counts; the names
                    // listed once, often most of them, only if the reading gets that far.
                    let minimumAtFirst = gathering.minimum
                    let early = Self.bands(
                        of: planes, words: words, numbers: numbers, lengths: lengths,
                        admitted: (0...buckets).flatMap {
                            $0 >= 2
                                ? admitted($0, minimum: minimumAtFirst) : Array(repeating: false, count: 256)
                        })
                    for held in stride(from: buckets, through: 1, by: -1) {
                        let gaps = pairs - covered[held]
                        if gaps > 0, let lowest = gathering.lowestKept(),
                            !Self.mayEnter(lowest, length: text.count, gaps: gaps)
                        {
                            return gathering.top.sorted()
                        }
                        // The band's names, shortest first (sorted by counting): a scattered
                        // match of a longer name scores less, so the band ends at the first
                        // length that could not enter. The bands of two buckets or more come
                        // sorted so; the names listed once are gathered and sorted here.
                        var sorted: [UInt32]
                        var starts = [Int](repeating: 0, count: 257)
                        if held >= 2 {
                            let bandStart = early.starts[held * 256]
                            sorted = Array(early.numbers[bandStart..<early.starts[held * 256 + 256]])
                            for length in 0..<256 {
                                starts[length] = early.starts[held * 256 + length + 1] - bandStart
                            }
                        } else {
                            let band = Self.band(
                                held, of: planes, words: words, numbers: numbers, lengths: lengths,
                                admitted: admitted(held, minimum: gathering.minimum))
                            // Sorted with their lengths beside them: a length read again by number
                            // is a fetch from memory for each name of the band.
                            for length in band.lengths { starts[Int(length) + 1] += 1 }
                            for length in 0..<256 { starts[length + 1] += starts[length] }
                            sorted = [UInt32](repeating: 0, count: band.numbers.count)
                            for (number, length) in zip(band.numbers, band.lengths) {
                                sorted[starts[Int(length)]] = number
                                starts[Int(length)] += 1
                            }
                        }
                        // `starts[length]` is now where the names longer than `length` begin.
                        // Each name's place is found once, when its record is asked for, and kept
                        // in a ring until it is read.
                        var length = 0
                        var places = [(folder: Int, index: Int)](repeating: (0, 0), count: Self.ringSize)
                        for position in 0..<min(NameOrder.recordDistance, sorted.count) {
                            places[position] = order.place(of: sorted[position])
                        }
                        for position in sorted.indices {
                            while starts[length] <= position { length += 1 }
                            if gaps > 0
                                && !NameMatcher.mayScatter(
                                    gathering.minimum, count: length, missingPairs: gaps)
                            {
                                break
                            }
                            // Its record, summary and ends are in cache by now, and its bytes on the way.
                            askAhead(in: sorted, after: position, places: &places, mask: mask)
                            let place = places[position & (Self.ringSize - 1)]
                            // The record is lent, not counted (see ``NameOrder/withRecord(_:_:)``).
                            order.withRecord(place.folder) { record in
                                guard record.mask(at: place.index) & mask == mask, scope.looks(in: record)
                                else {
                                    return
                                }
                                gathering.consider(place.index, in: record, gapsAtLeast: gaps)
                            }
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
                                    listed |= planes[plane * words.count + (number >> 6) - words.lowerBound]
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
    }

    /// Asks memory for what reading the names of `sorted` after `position` will touch, each
    /// step as far ahead as ``NameOrder`` says; the place of the name whose record is asked for
    /// is kept in `places` (a ring of ``ringSize``, by position) for the later steps and the
    /// reading.
    @inline(__always)
    private func askAhead(
        in sorted: [UInt32], after position: Int, places: inout [(folder: Int, index: Int)], mask: UInt64
    ) {
        let count = sorted.count
        let ring = Self.ringSize - 1
        if position + NameOrder.recordDistance < count {
            let place = order.place(of: sorted[position + NameOrder.recordDistance])
            places[(position + NameOrder.recordDistance) & ring] = place
            order.askForRecord(at: place)
        }
        if position + NameOrder.endsDistance < count {
            order.askForEnds(at: places[(position + NameOrder.endsDistance) & ring])
        }
        if position + NameOrder.bytesDistance < count {
            order.askForBytes(at: places[(position + NameOrder.bytesDistance) & ring], mask: mask)
        }
    }

    /// How many places the reading keeps ahead: a power of two above ``NameOrder/recordDistance``.
    static let ringSize = 16

    /// The numbers among `numbers` of the names counted `held` times in `planes` (each plane's
    /// bit as the count's, over the words `words`) whose length in `lengths` is `admitted` (by
    /// length: a name too long to score enough is left out here, before the band is sorted),
    /// ascending, each with its length.
    private static func band(
        _ held: Int, of planes: UnsafeBufferPointer<UInt64>, words: Range<Int>, numbers range: Range<Int>,
        lengths: UnsafeBufferPointer<UInt8>, admitted: [Bool]
    ) -> (numbers: [UInt32], lengths: [UInt8]) {
        var numbers: [UInt32] = []
        var lengthsFound: [UInt8] = []
        admitted.withUnsafeBufferPointer { admitted in
            for index in (range.lowerBound >> 6)..<((range.upperBound + 63) >> 6) {
                var bits = ~UInt64(0)
                for plane in 0..<planeCount {
                    let word = planes[plane * words.count + index - words.lowerBound]
                    bits &= held & (1 << plane) != 0 ? word : ~word
                }
                while bits != 0 {
                    let number = index << 6 | bits.trailingZeroBitCount
                    if range.contains(number), admitted[Int(lengths[number])] {
                        numbers.append(UInt32(number))
                        lengthsFound.append(lengths[number])
                    }
                    bits &= bits &- 1
                }
            }
        }
        return (numbers, lengthsFound)
    }

    /// The numbers among `numbers` of the names counted twice or more in `planes` (each
    /// plane's bit as the count's, over the words `words`), sorted by their count and then their
    /// length (a counting sort on `count * 256 + length`): the band of `h` buckets, shortest
    /// first, is `numbers[starts[h * 256]..<starts[h * 256 + 256]]`, and its names of length `l`
    /// end at `starts[h * 256 + l + 1]`. A name is left out when `admitted[count * 256 + length]`
    /// is false. One pass over the planes for every band but the names listed once, which
    /// ``band(_:of:words:numbers:lengths:admitted:)`` gathers when they are reached.
    private static func bands(
        of planes: UnsafeBufferPointer<UInt64>, words: Range<Int>, numbers range: Range<Int>,
        lengths: UnsafeBufferPointer<UInt8>, admitted: [Bool]
    ) -> (numbers: [UInt32], starts: [Int]) {
        let span = words.count
        let indices = (range.lowerBound >> 6)..<((range.upperBound + 63) >> 6)
        // A count of two or more has a bit above the lowest: counted first, so the names are
        // written into buffers of their size (an append a name costs more than the rest).
        @inline(__always) func many(_ index: Int) -> UInt64 {
            let word = index - words.lowerBound
            var many: UInt64 = 0
            for plane in 1..<planeCount { many |= planes[plane * span + word] }
            return many
        }
        var most = 0
        for index in indices { most += many(index).nonzeroBitCount }
        var found = [UInt32](repeating: 0, count: most)
        var keys = [UInt16](repeating: 0, count: most)
        var count = 0
        admitted.withUnsafeBufferPointer { admitted in
            found.withUnsafeMutableBufferPointer { found in
                keys.withUnsafeMutableBufferPointer { keys in
                    for index in indices {
                        let word = index - words.lowerBound
                        var bits = many(index)
                        while bits != 0 {
                            let bit = UInt64(bits.trailingZeroBitCount)
                            bits &= bits &- 1
                            let number = index << 6 | Int(bit)
                            guard range.contains(number) else { continue }
                            var held = 0
                            for plane in 0..<planeCount {
                                held |= Int((planes[plane * span + word] >> bit) & 1) << plane
                            }
                            let key = held << 8 | Int(lengths[number])
                            guard key < admitted.count, admitted[key] else { continue }
                            found[count] = UInt32(number)
                            keys[count] = UInt16(key)
                            count += 1
                        }
                    }
                }
            }
        }
        found.removeLast(most - count)
        keys.removeLast(most - count)
        var starts = [Int](repeating: 0, count: admitted.count + 1)
        for key in keys { starts[Int(key) + 1] += 1 }
        for key in 0..<admitted.count { starts[key + 1] += starts[key] }
        var sorted = [UInt32](repeating: 0, count: found.count)
        var next = starts
        for (number, key) in zip(found, keys) {
            sorted[next[Int(key)]] = number
            next[Int(key)] += 1
        }
        return (sorted, starts)
    }

    /// How many bit planes count the buckets listing a name: up to 15 buckets.
    static let planeCount = 4

    /// Whether a scattered match of a query of `length` bytes with `gaps` gaps at least could
    /// still score `lowest`: its letters span `length + gaps` bytes at least.
    static func mayEnter(_ lowest: Int, length: Int, gaps: Int) -> Bool {
        NameMatcher.mayScatter(lowest, count: length + gaps, missingPairs: gaps)
    }
}
