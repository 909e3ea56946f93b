/// `GET /api/search`: names matching a query, best first.
public struct SearchResponse: Codable, Sendable, Hashable {
    /// One match.
    public struct Result: Codable, Sendable, Hashable {
        /// The name.
        public var name: String
        /// The path relative to the served root, with a leading `/`.
        public var path: String
        /// The absolute filesystem path.
        public var absolutePath: String
        /// What it is.
        public var type: ItemType
        /// Higher is better.
        public var score: Int
        /// The extension, `null` when none.
        public var `extension`: String?
        /// `true` when the server can make a thumbnail of the file; absent otherwise (additive).
        public var thumbnail: Bool?

        /// Makes a match.
        public init(
            name: String, path: String, absolutePath: String, type: ItemType, score: Int, extension: String?
        ) {
            self.name = name
            self.path = path
            self.absolutePath = absolutePath
            self.type = type
            self.score = score
            self.extension = `extension`
        }

        enum CodingKeys: String, CodingKey {
            case name, path, absolutePath, type, score, `extension`, thumbnail
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
            try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        }
    }

    /// The query as received.
    public var query: String
    /// The matches, best first.
    public var results: [Result]

    /// Makes a search answer.
    public init(query: String, results: [Result]) {
        self.query = query
        self.results = results
    }
}
