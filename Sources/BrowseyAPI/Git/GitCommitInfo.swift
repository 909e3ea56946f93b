/// One commit as the git routes list it (the contract's `CommitInfo`): all strings, the date in
/// git's own strict ISO-8601 form with the commit's offset (`2026-06-06T10:36:47+03:00`), not the
/// milliseconds-UTC form used elsewhere.
public struct GitCommitInfo: Codable, Sendable, Hashable {
    /// The full object name: 40 hex digits (64 in a SHA-256 repository).
    public var hash: String
    /// The abbreviated name, 7 or more hex digits.
    public var shortHash: String
    /// The author's name.
    public var author: String
    /// The author date, as git writes it (`%aI`).
    public var date: String
    /// The subject: the message's first line.
    public var message: String

    /// Describes a commit.
    public init(hash: String, shortHash: String, author: String, date: String, message: String) {
        self.hash = hash
        self.shortHash = shortHash
        self.author = author
        self.date = date
        self.message = message
    }
}
