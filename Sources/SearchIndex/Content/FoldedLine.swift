/// A line folded as names are (lowercase, accents dropped), with the way back from each folded
/// byte to the UTF-16 offset of the character it came from.
struct FoldedLine {
    /// The folded bytes.
    let folded: [UInt8]
    /// For each folded byte, its character's UTF-16 offset in the line, and one more entry for
    /// the end; `nil` for an ASCII line, where both are the same.
    private let offsets: [Int]?

    /// Folds `line`; a line not all ASCII is folded only as far as `budget` lasts (the rest is
    /// left out, and the budget says it is spent).
    init(_ line: UnsafeBufferPointer<UInt8>, budget: inout TimeBudget) {
        if line.allSatisfy({ $0 < 0x80 }) {
            folded = line.map(Self.lowered)
            offsets = nil
            return
        }
        var folded: [UInt8] = []
        var offsets: [Int] = []
        var offset = 0
        for character in String(decoding: line, as: UTF8.self) {
            // A character folded costs about what a hundred bytes looked through do.
            guard budget.spend(100) else { break }
            let bytes = NameFolding.fold(String(character))
            folded += bytes
            offsets += repeatElement(offset, count: bytes.count)
            offset += character.utf16.count
        }
        offsets.append(offset)
        self.folded = folded
        self.offsets = offsets
    }

    /// Folds `line`, however long it takes.
    init(_ line: UnsafeBufferPointer<UInt8>) {
        var budget = TimeBudget(until: nil)
        self.init(line, budget: &budget)
    }

    /// An ASCII byte folded: a capital read as its small letter.
    @inline(__always)
    static func lowered(_ byte: UInt8) -> UInt8 {
        byte &+ (byte &- 65 < 26 ? 32 : 0)
    }

    /// Where `needle` occurs, in folded bytes, without overlaps.
    func occurrences(of needle: [UInt8]) -> [Range<Int>] {
        var budget = TimeBudget(until: nil)
        return occurrences(of: needle, limit: .max, budget: &budget).ranges
    }

    /// The first `limit` places `needle` occurs, in folded bytes, without overlaps, and whether
    /// any occurrence is a whole word (looked for past the first `limit`, up to the first whole
    /// one); as far as `budget` lasts.
    func occurrences(
        of needle: [UInt8], limit: Int, budget: inout TimeBudget
    ) -> (ranges: [Range<Int>], whole: Bool) {
        guard !needle.isEmpty, needle.count <= folded.count else { return ([], false) }
        var found: [Range<Int>] = []
        var whole = false
        let first = needle[0]
        var index = 0
        let last = folded.count - needle.count
        // The work is counted a chunk of places at a time, its worst cost before it.
        var counted = 0
        while index <= last {
            if index >= counted {
                counted = min(last + 1, index + ContentMatcher.chunkPlaces)
                guard budget.spend((counted - index) * needle.count) else { break }
            }
            if folded[index] == first && folded[index..<index + needle.count].elementsEqual(needle) {
                let range = index..<index + needle.count
                if found.count < limit { found.append(range) }
                if !whole { whole = isWholeWord(range) }
                if whole && found.count >= limit { break }
                index += needle.count
            } else {
                index += 1
            }
        }
        return (found, whole)
    }

    /// Whether the folded range neither starts nor ends inside a word.
    func isWholeWord(_ range: Range<Int>) -> Bool {
        func isWord(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == 95
        }
        let before = range.lowerBound == 0 || !isWord(folded[range.lowerBound - 1])
        let after = range.upperBound == folded.count || !isWord(folded[range.upperBound])
        return before && after
    }

    /// The UTF-16 range in the line of a folded range.
    func originalRange(_ range: Range<Int>) -> Range<Int> {
        guard let offsets else { return range }
        let start = offsets[range.lowerBound]
        // The end is the start of the character after the range's last byte.
        var end = range.upperBound
        while end < offsets.count - 1 && offsets[end] == offsets[range.upperBound - 1] { end += 1 }
        return start..<max(start, offsets[end])
    }
}
