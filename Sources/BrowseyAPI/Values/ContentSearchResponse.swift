/// `GET /api/search?in=content`: files whose text matches a query, best first, each with its
/// matching lines (additive to the contract).
public struct ContentSearchResponse: Codable, Sendable, Hashable {
    /// One matching line.
    public struct Line: Codable, Sendable, Hashable {
        /// The line's number, from 1.
        public var line: Int
        /// The line, or the part of a long line around its first match.
        public var text: String
        /// Where the matches are in `text`: `[start, end]` pairs of UTF-16 offsets (as
        /// JavaScript's `slice` takes them), end exclusive.
        public var matches: [[Int]]

        /// Makes a line.
        public init(line: Int, text: String, matches: [[Int]]) {
            self.line = line
            self.text = text
            self.matches = matches
        }
    }

    /// One matching file.
    public struct Result: Codable, Sendable, Hashable {
        /// The name.
        public var name: String
        /// The path relative to the served root, with a leading `/`.
        public var path: String
        /// The absolute filesystem path.
        public var absolutePath: String
        /// Always `file`.
        public var type: ItemType
        /// How well it matches: 4 a line holds the phrase as whole words, 3 the phrase, 2 every
        /// word as a whole word, 1 every word, 0 the words on different lines; 1 for a regular
        /// expression.
        public var score: Int
        /// The extension, `null` when none.
        public var `extension`: String?
        /// The file as a listing shows it.
        public var item: ListItem
        /// Its best matching lines, in line order.
        public var lines: [Line]

        /// Makes a result.
        public init(path: String, item: ListItem, score: Int, lines: [Line]) {
            name = item.name
            self.path = path
            absolutePath = item.absolutePath
            type = item.type
            self.score = score
            self.extension = item.extension
            self.item = item
            self.lines = lines
        }

        enum CodingKeys: String, CodingKey {
            case name, path, absolutePath, type, score, `extension`, item, lines
        }

        /// Writes `extension` as `null` when absent.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(path, forKey: .path)
            try container.encode(absolutePath, forKey: .absolutePath)
            try container.encode(type, forKey: .type)
            try container.encode(score, forKey: .score)
            try container.encode(`extension`, forKey: .extension)
            try container.encode(item, forKey: .item)
            try container.encode(lines, forKey: .lines)
        }
    }

    /// The query as received.
    public var query: String
    /// The matching files, best first.
    public var results: [Result]
    /// `false` when more files may match than were looked at: the index is still being built,
    /// or the search stopped at its time budget.
    public var complete: Bool
    /// `true` when more files match than `limit`: the search found one more and left it out.
    /// A server of an earlier build does not send it, and is read as `false`.
    public var hasMore: Bool

    /// Makes an answer.
    public init(query: String, results: [Result], complete: Bool, hasMore: Bool = false) {
        self.query = query
        self.results = results
        self.complete = complete
        self.hasMore = hasMore
    }

    enum CodingKeys: String, CodingKey {
        case query, results, complete, hasMore
    }

    /// Reads an answer; a missing `hasMore` is `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        query = try container.decode(String.self, forKey: .query)
        results = try container.decode([Result].self, forKey: .results)
        complete = try container.decode(Bool.self, forKey: .complete)
        hasMore = try container.decodeIfPresent(Bool.self, forKey: .hasMore) ?? false
    }
}
