/// Scores a name against a query the way Browsey's search ranks: an exact name first, then a
/// prefix, then a substring (earlier and at a word start is better), then a scattered
/// subsequence (fewer gaps is better). A plain substring always outranks a scattered match.
/// Case is ignored.
public struct FuzzyMatch: Sendable {
    /// The query, lowercased.
    public let query: [Character]

    /// Prepares a query.
    public init(_ query: String) {
        self.query = Array(query.lowercased())
    }

    /// The score of `name`, higher is better; `nil` when it does not match at all.
    public func score(_ name: String) -> Int? {
        guard !query.isEmpty else { return nil }
        let candidate = Array(name.lowercased())
        guard candidate.count >= query.count else { return nil }
        if candidate == query { return 10_000 }
        if let position = firstOccurrence(in: candidate) {
            if position == 0 { return 8_000 - min(candidate.count, 999) }
            let wordStart = !(candidate[position - 1].isLetter || candidate[position - 1].isNumber)
            return 5_000 + (wordStart ? 1_000 : 0) - min(position, 999)
        }
        // A subsequence: every query character in order; each gap costs.
        var gaps = 0
        var index = 0
        var previous = -1
        for character in query {
            while index < candidate.count && candidate[index] != character { index += 1 }
            guard index < candidate.count else { return nil }
            if previous >= 0 && index > previous + 1 { gaps += index - previous - 1 }
            previous = index
            index += 1
        }
        return max(1, 1_000 - gaps * 10 - min(candidate.count, 500))
    }

    private func firstOccurrence(in candidate: [Character]) -> Int? {
        guard candidate.count >= query.count else { return nil }
        for start in 0...(candidate.count - query.count)
        where candidate[start] == query[0] && Array(candidate[start..<(start + query.count)]) == query {
            return start
        }
        return nil
    }
}
