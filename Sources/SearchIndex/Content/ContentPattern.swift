/// What a content search looks for: words (a file must hold them all; a line holding the whole
/// phrase ranks first), or a regular expression. Case and accents do not matter for words (they
/// are folded as names are, see ``SearchQuery``); a regular expression is case-sensitive unless
/// asked otherwise.
///
/// ```swift
/// let pattern = try ContentPattern(text: "quarterly report")
/// let lines = pattern.matcher().lines(in: "…\nThe Quarterly Report is due\n…", limit: 3)
/// ```
public struct ContentPattern: Sendable {
    /// How the pattern reads.
    public enum Kind: Sendable, Hashable {
        /// Words, found case- and accent-insensitively.
        case words
        /// A regular expression (``LinearRegex``: the usual forms, matched in linear time).
        case regex(ignoresCase: Bool)
    }

    /// The pattern as given.
    public let source: String
    /// How it reads.
    public let kind: Kind
    /// The folded phrase (the words joined by one space).
    let phrase: [UInt8]
    /// The folded words.
    let words: [[UInt8]]
    /// Folded runs of three or more characters that every match holds (for the trigram index).
    let literals: [[UInt8]]
    /// The compiled expression (`nil` for words).
    let regex: LinearRegex?

    /// The longest pattern taken, in bytes.
    public static let maximumLength = 512

    /// A search for words; at least one of them must be three characters long (what the
    /// trigram index can narrow by).
    ///
    /// - Throws: ``SearchIndexError`` `.badPattern` for a query without such a word.
    public init(text: String) throws(SearchIndexError) {
        source = text
        kind = .words
        let all = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .map { NameFolding.fold(String($0)) }
            .filter { !$0.isEmpty }
        phrase = Array(all.joined(separator: [UInt8(ascii: " ")]))
        // A word given twice is looked for once (each is a pass over every line that may hold it).
        var seen = Set<[UInt8]>()
        words = all.filter { seen.insert($0).inserted }
        literals = words.filter { Self.characterCount($0) >= 3 }
        regex = nil
        guard text.utf8.count <= Self.maximumLength else {
            throw SearchIndexError(.badPattern, "The query is longer than \(Self.maximumLength) bytes")
        }
        // No text file holds one (a NUL byte makes a file binary).
        guard !text.utf8.contains(0) else {
            throw SearchIndexError(.badPattern, "The query holds a NUL character")
        }
        guard !literals.isEmpty else {
            throw SearchIndexError(.badPattern, "Content search needs a word of at least 3 characters")
        }
    }

    /// A search by regular expression; it is compiled here, so a bad one is refused at once.
    ///
    /// - Throws: ``SearchIndexError`` `.badPattern` when it is empty, does not compile or is too
    ///   long.
    public init(regex: String, ignoresCase: Bool) throws(SearchIndexError) {
        source = regex
        kind = .regex(ignoresCase: ignoresCase)
        words = []
        phrase = []
        guard !regex.isEmpty else {
            throw SearchIndexError(.badPattern, "Content search needs an expression to match")
        }
        guard regex.utf8.count <= Self.maximumLength else {
            throw SearchIndexError(.badPattern, "The expression is longer than \(Self.maximumLength) bytes")
        }
        guard !regex.utf8.contains(0) else {
            throw SearchIndexError(.badPattern, "The expression holds a NUL character")
        }
        self.regex = try LinearRegex(regex, ignoresCase: ignoresCase)
        literals = RegexLiterals.required(in: regex).map(NameFolding.fold).filter {
            Self.characterCount($0) >= 3
        }
    }

    /// The trigrams that narrow the files to read most: every trigram of every literal, all
    /// required; `nil` when nothing narrows (a regular expression without a literal run of three
    /// characters). The index asks for fewer when it can (see ``TrigramPlan``).
    var indexTrigrams: [String]? {
        literals.isEmpty ? nil : TrigramPlan.everyTrigram(of: literals)
    }

    /// A matcher for one thread.
    public func matcher() -> ContentMatcher { ContentMatcher(self) }

    static func characterCount(_ folded: [UInt8]) -> Int {
        folded.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}
