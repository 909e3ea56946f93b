/// Finds a ``ContentPattern`` in a file's text, line by line. Made by
/// ``ContentPattern/matcher()`` for use on one thread.
public struct ContentMatcher {
    /// The pattern it finds.
    public let pattern: ContentPattern
    private let regex: LinearRegex?

    /// The longest line a regular expression is tried on, in bytes (longer lines are skipped:
    /// its time grows with the line times the expression, ``LinearRegex``).
    public static let regexLineLimit = 256 * 1024
    /// The longest snippet, in UTF-16 units.
    public static let snippetLength = 240
    /// The most match ranges given for one line.
    static let rangesPerLine = 16
    /// The places of a line looked at between two counts of the work (``TimeBudget``).
    static let chunkPlaces = 4096

    init(_ pattern: ContentPattern) {
        self.pattern = pattern
        regex = pattern.regex
    }

    /// The best `limit` matching lines of `text`, in line order, and the file's score (its best
    /// line's); `nil` when nothing matches (for words: unless every word is in the file).
    ///
    /// Past `deadline` it stops where it is: `complete` is then false, and the lines are those
    /// found by then (none, for words not all seen by then). Each loop over a line reads the
    /// clock as it goes, so no line or expression holds it much past the deadline.
    public func lines(
        in text: String, limit: Int, until deadline: ContinuousClock.Instant? = nil
    ) -> (score: Int, lines: [ContentLine], complete: Bool)? {
        var budget = TimeBudget(until: deadline)
        var found: [ContentLine] = []
        var wordsSeen = Set<Int>()
        var number = 0
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count, budget.spend(1) {
                number += 1
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                var lineEnd = end
                if lineEnd > start && bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<lineEnd])
                if let match = match(line, number: number, wordsSeen: &wordsSeen, budget: &budget) {
                    found.append(match)
                    // Enough lines of the best kind: no later line can displace them.
                    if found.count >= limit * 4 {
                        found.sort { $0.score != $1.score ? $0.score > $1.score : $0.number < $1.number }
                        found.removeLast(found.count - limit)
                        if found.allSatisfy({ $0.score == found[0].score }) && found[0].score == topScore {
                            break
                        }
                    }
                }
                start = end + 1
            }
        }
        let complete = !budget.isSpent
        if case .words = pattern.kind, wordsSeen.count < pattern.words.count {
            return complete ? nil : (0, [], false)
        }
        guard !found.isEmpty else { return complete ? nil : (0, [], false) }
        found.sort { $0.score != $1.score ? $0.score > $1.score : $0.number < $1.number }
        let best = found[0].score
        return (best, found.prefix(limit).sorted { $0.number < $1.number }, complete)
    }

    private var topScore: Int {
        if case .words = pattern.kind { return 4 }
        return 1
    }

    private func match(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, wordsSeen: inout Set<Int>, budget: inout TimeBudget
    ) -> ContentLine? {
        if let regex {
            guard line.count <= Self.regexLineLimit else { return nil }
            // Every match holds the expression's literal runs: a line without one of them is not
            // given to the engine, which costs a hundred times more a line than this look.
            if !pattern.literals.isEmpty {
                if TrigramKeys.isASCII(line) {
                    guard pattern.literals.allSatisfy({ Self.asciiLine(line, holds: $0, budget: &budget) })
                    else { return nil }
                } else {
                    let folded = FoldedLine(line, budget: &budget)
                    guard
                        pattern.literals.allSatisfy({
                            !folded.occurrences(of: $0, limit: 1, budget: &budget).ranges.isEmpty
                        })
                    else { return nil }
                }
            }
            guard !budget.isSpent else { return nil }
            let text = String(decoding: line, as: UTF8.self)
            let ranges = regex.matches(in: text, limit: Self.rangesPerLine, budget: &budget)
            guard !ranges.isEmpty else { return nil }
            return Self.snippet(text, ranges: ranges, number: number, score: 1)
        }
        // Most lines of a file that matches hold none of the words: an ASCII line is looked
        // through as it is (its capitals read as small letters), and folded only when it holds one.
        if TrigramKeys.isASCII(line)
            && !pattern.words.contains(where: { Self.asciiLine(line, holds: $0, budget: &budget) })
        {
            return nil
        }
        let folded = FoldedLine(line, budget: &budget)
        var score = 0
        // The first ranges of each are enough: the line shows its first ``rangesPerLine``.
        let phrase = folded.occurrences(of: pattern.phrase, limit: Self.rangesPerLine, budget: &budget)
        var ranges = phrase.ranges
        if !ranges.isEmpty {
            score = phrase.whole ? 4 : 3
            for index in pattern.words.indices { wordsSeen.insert(index) }
        } else {
            var all = true
            var whole = true
            for (index, word) in pattern.words.enumerated() {
                let found = folded.occurrences(of: word, limit: Self.rangesPerLine, budget: &budget)
                if found.ranges.isEmpty {
                    all = false
                    continue
                }
                wordsSeen.insert(index)
                if !found.whole { whole = false }
                ranges += found.ranges
            }
            guard !ranges.isEmpty else { return nil }
            score = all ? (whole ? 2 : 1) : 0
            ranges.sort { $0.lowerBound < $1.lowerBound }
        }
        let text = String(decoding: line, as: UTF8.self)
        let original = ranges.prefix(Self.rangesPerLine).map { folded.originalRange($0) }
        return Self.snippet(text, ranges: original, number: number, score: score)
    }

    /// Whether `line`, all ASCII, holds `needle` (folded: small letters) once folded: its capitals
    /// are read as small letters. A needle with any other byte is in no ASCII line.
    static func asciiLine(
        _ line: UnsafeBufferPointer<UInt8>, holds needle: [UInt8], budget: inout TimeBudget
    ) -> Bool {
        guard !needle.isEmpty, needle.count <= line.count else { return needle.isEmpty }
        return needle.withUnsafeBufferPointer { needle in
            let first = needle[0]
            let last = line.count - needle.count
            // A chunk of places at a time, its worst cost counted before it (a count a place
            // slowed the look through every line of a file by a tenth).
            var chunk = 0
            while chunk <= last {
                let end = min(last, chunk + Self.chunkPlaces - 1)
                guard budget.spend((end - chunk + 1) * needle.count) else { return false }
                for start in chunk...end {
                    guard FoldedLine.lowered(line[start]) == first else { continue }
                    var index = 1
                    while index < needle.count && FoldedLine.lowered(line[start + index]) == needle[index] {
                        index += 1
                    }
                    if index == needle.count { return true }
                }
                chunk += Self.chunkPlaces
            }
            return false
        }
    }

    /// The UTF-16 offset at or before `offset` (and after `floor`, when there is one within
    /// 32 units) that falls between two characters of `text`; else the one at or before
    /// `offset` that falls between two scalars.
    private static func boundary(atOrBefore offset: Int, in text: String, units: [UInt16], floor: Int) -> Int
    {
        guard offset > 0 && offset < units.count else { return offset }
        let utf16 = text.utf16
        var index = utf16.index(utf16.startIndex, offsetBy: offset)
        var candidate = offset
        while candidate >= max(floor, offset - 32) {
            if candidate == 0 || index.samePosition(in: text) != nil { return candidate }
            index = utf16.index(before: index)
            candidate -= 1
        }
        return UTF16.isTrailSurrogate(units[offset]) ? offset - 1 : offset
    }

    /// The line cut to ``snippetLength`` around its first match, with the ranges moved along.
    static func snippet(_ text: String, ranges: [Range<Int>], number: Int, score: Int) -> ContentLine {
        let units = Array(text.utf16)
        guard units.count > snippetLength, let first = ranges.first else {
            return ContentLine(number: number, text: text, matches: ranges, score: score)
        }
        // Both ends on a character's boundary: not inside a surrogate pair, nor between a letter
        // and the accent that follows it (a snippet must not begin with a lone combining mark).
        // Each end moves back at most 32 units: a longer cluster (a line of nothing but
        // accents) is cut between its scalars, as asking each unit in turn would take time
        // quadratic in it.
        let cut = max(0, min(first.lowerBound - snippetLength / 3, units.count - snippetLength))
        var start = boundary(atOrBefore: cut, in: text, units: units, floor: 0)
        var end = boundary(
            atOrBefore: min(units.count, start + snippetLength), in: text, units: units, floor: start + 1)
        if end <= start {
            start = cut
            end = min(units.count, start + snippetLength)
        }
        let kept = ranges.compactMap { range -> Range<Int>? in
            let lower = max(range.lowerBound, start)
            let upper = min(range.upperBound, end)
            return lower < upper ? (lower - start)..<(upper - start) : nil
        }
        return ContentLine(
            number: number, text: String(decoding: units[start..<end], as: UTF16.self), matches: kept,
            score: score)
    }
}
