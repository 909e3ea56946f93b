/// Scores a name against a query the way Browsey's search ranks: an exact name first, then a
/// prefix, then a substring (earlier and at a word start is better), then a scattered
/// subsequence (fewer gaps is better). A plain substring always outranks a scattered match.
/// Case and accents are ignored (see ``NameFolding``). A query of several words (`img 00`,
/// `panorama big`) also matches a name that holds every word as a substring, in any order; such
/// a match ranks below the words found together as one substring, above scattered letters.
///
/// ```swift
/// let matcher = NameMatcher("rdme")
/// matcher?.score(name: "README.md")   // a scattered match: 1…999
/// matcher?.score(name: "notes.txt")   // nil
/// ```
public struct NameMatcher: Sendable {
    /// The folded query.
    let query: [UInt8]
    /// The character classes every matching name must hold.
    let mask: UInt64
    /// The pair classes every name holding the query as a substring must hold.
    let pairMask: UInt32
    /// The query's words when it has two or more (split at spaces), else empty.
    let words: [[UInt8]]

    /// Prepares a query (spaces, tabs and line breaks around it do not count); `nil` when it
    /// has nothing to match.
    public init?(_ text: String) {
        var folded = NameFolding.fold(text)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        while let last = folded.last, isSpace(last) { folded.removeLast() }
        guard let first = folded.firstIndex(where: { !isSpace($0) }) else { return nil }
        folded.removeFirst(first)
        query = folded
        let split = folded.split(whereSeparator: isSpace).map { Array($0) }
        words = split.count > 1 ? split : []
        if words.isEmpty {
            mask = folded.withUnsafeBufferPointer { NameFolding.mask($0) }
            pairMask = folded.withUnsafeBufferPointer { NameFolding.pairMask($0) }
        } else {
            // What every match holds, the words together or apart: each word's letters and pairs
            // (not the spaces between them, nor the pairs across them).
            mask = split.reduce(0) { sum, word in sum | word.withUnsafeBufferPointer { NameFolding.mask($0) }
            }
            pairMask = split.reduce(0) { sum, word in
                sum | word.withUnsafeBufferPointer { NameFolding.pairMask($0) }
            }
        }
    }

    /// The score of `name`, higher is better; `nil` when it does not match at all.
    public func score(name: String) -> Int? {
        var name = name
        var folded: [UInt8] = []
        name.withUTF8 { NameFolding.fold($0, into: &folded) }
        return folded.withUnsafeBufferPointer { score(folded: $0) }
    }

    /// The score of a folded name; `nil` when it does not match, or when it could only score
    /// below `minimum` (so a search whose best hits are all substrings skips the scattered
    /// pass: every scattered score is below 1,000).
    func score(folded candidate: UnsafeBufferPointer<UInt8>, minimum: Int = 0) -> Int? {
        query.withUnsafeBufferPointer { query in
            words.isEmpty
                ? Self.score(candidate, query: query, minimum: minimum)
                : Self.score(candidate, phrase: query, words: words, minimum: minimum)
        }
    }

    /// The score of a name against a query of several words: the words together as a substring
    /// score as any query does; else every word as a substring, in any order, scores 1,400–2,000
    /// (by the worst-placed word); else scattered letters of the whole query.
    static func score(
        _ candidate: UnsafeBufferPointer<UInt8>, phrase: UnsafeBufferPointer<UInt8>, words: [[UInt8]],
        minimum: Int
    ) -> Int? {
        if let together = score(candidate, query: phrase, minimum: max(minimum, 1_000)) { return together }
        if minimum <= Self.bestApart {
            var worst = Int.max
            var all = true
            for word in words {
                guard
                    let found = word.withUnsafeBufferPointer({ score(candidate, query: $0, minimum: 1_001) })
                else {
                    all = false
                    break
                }
                worst = min(worst, found)
            }
            if all { return 1_000 + worst / 10 }
        }
        return minimum < 1_000 ? score(candidate, query: phrase, minimum: minimum) : nil
    }

    /// The best score of a match of every word apart (an exact name, 10,000, scaled).
    static let bestApart = 2_000

    /// The scoring itself, on a query already lent as a buffer (a scan lends it once, not once
    /// per name). With `substring` false the caller knows the name cannot hold the query as a
    /// substring (it lacks one of the query's pairs of bytes), and only a scattered match is
    /// looked for.
    @inline(__always)
    static func score(
        _ candidate: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>, minimum: Int,
        substring: Bool = true
    ) -> Int? {
        let count = candidate.count
        let length = query.count
        guard count >= length, length > 0 else { return nil }
        if substring, let found = substringScore(candidate, query: query, minimum: minimum) { return found }
        guard minimum < 1_000 else { return nil }
        // A subsequence: every query byte in order; each gap costs 10, so past `allowed` gaps
        // the name cannot score `minimum` and the search stops.
        let best = 1_000 - min(count, 500)
        guard best >= minimum else { return nil }
        // At a minimum of 1 or less the score's floor of 1 still reaches it: no gap is too many.
        let allowed = minimum > 1 ? (best - minimum) / 10 : count
        var gaps = 0
        var previous = -1
        var index = 0
        // The first byte is looked for where the rest still fits after it, each later one only
        // as far as the gaps still allowed reach: the same leftmost places as an unbounded
        // search, which would stop at the first gap too many.
        var end = count - length + 1
        for byte in query {
            while index < end && candidate[index] != byte { index += 1 }
            guard index < end else { return nil }
            if previous >= 0 { gaps += index - previous - 1 }
            previous = index
            index += 1
            end = min(count, index + 1 + allowed - gaps)
        }
        return max(1, best - gaps * 10)
    }

    /// The score of the query's first place in `candidate` as a substring, or `nil`.
    @inline(__always)
    private static func substringScore(
        _ candidate: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>, minimum: Int
    ) -> Int? {
        let count = candidate.count
        let length = query.count
        // A substring: names are short, so a plain loop beats memmem's set-up. Past a point no
        // substring can score `minimum` (a later start scores less), so the loop stops there;
        // a prefix is always looked for.
        let first = query[0]
        var last = count - length
        // (At a word start the score is 6,000 less the place: a tie with `minimum` can still
        // enter, on depth or name.)
        if minimum > 1_000 { last = min(last, max(0, Self.bestSubstring + 1 - minimum)) }
        var start = 0
        while start <= last {
            if candidate[start] == first {
                var offset = 1
                while offset < length && candidate[start + offset] == query[offset] { offset += 1 }
                if offset == length {
                    if start == 0 { return count == length ? 10_000 : 8_000 - min(count, 999) }
                    let before = candidate[start - 1]
                    let wordStart = before < 0x80 && !isAlphanumeric(before)
                    return 5_000 + (wordStart ? 1_000 : 0) - min(start, 999)
                }
            }
            start += 1
        }
        return nil
    }

    /// The best score of a substring that is not a prefix (at a word start, one byte in).
    static let bestSubstring = 5_999

    /// Whether a name of `count` bytes could score `minimum` against a query of `length`
    /// bytes, when only a prefix or the whole name could (`minimum` above any other substring):
    /// the cheapest test of a scan, made before a byte of the name is read.
    @inline(__always)
    static func mayReach(_ minimum: Int, count: Int, length: Int) -> Bool {
        minimum <= bestSubstring || count == length || 8_000 - min(count, 999) >= minimum
    }

    /// Whether a name of `count` bytes that cannot hold a one-word query as a substring, and
    /// lacks `missingPairs` of the query's pair classes (``NameFolding/pairMask(_:)``), could
    /// still score `minimum` with scattered letters: each pair of the query it lacks is a gap
    /// at least, so this is decided before a byte of the name is read.
    @inline(__always)
    static func mayScatter(_ minimum: Int, count: Int, missingPairs: Int) -> Bool {
        minimum <= 1 || 1_000 - min(count, 500) - 10 * missingPairs >= minimum
    }

    @inline(__always)
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || (byte >= 48 && byte <= 57)
    }
}
