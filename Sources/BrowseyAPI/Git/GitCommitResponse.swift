/// The answer to `GET /api/git/commit`.
public struct GitCommitResponse: Codable, Sendable, Hashable {
    /// The commit.
    public var commit: GitCommitDetail

    /// Makes the answer.
    public init(commit: GitCommitDetail) { self.commit = commit }
}

/// One commit in full: who, when, the whole message, its neighbours in the history and the
/// files it changed.
public struct GitCommitDetail: Codable, Sendable, Hashable {
    /// The full object name.
    public var hash: String
    /// The abbreviated name.
    public var shortHash: String
    /// The author's name.
    public var author: String
    /// The author's email address, `""` when none.
    public var authorEmail: String
    /// The author date, git's strict ISO-8601.
    public var date: String
    /// The committer's name.
    public var committer: String
    /// The committer's email address.
    public var committerEmail: String
    /// The commit date, git's strict ISO-8601.
    public var commitDate: String
    /// The subject.
    public var message: String
    /// The message after the subject, trailing white space trimmed; `""` when none.
    public var body: String
    /// The newer commit just before it in `HEAD`'s history (its child, in a straight history).
    public var previousCommit: GitCommitInfo?
    /// The older commit just after it in `HEAD`'s history (its parent, in a straight history).
    public var nextCommit: GitCommitInfo?
    /// Totals over the files changed.
    public var stats: GitCommitStats
    /// The files changed, compared with the first parent (every file of a root commit is `A`).
    public var files: [GitCommitFile]

    /// Describes a commit.
    public init(
        hash: String, shortHash: String, author: String, authorEmail: String, date: String,
        committer: String, committerEmail: String, commitDate: String, message: String, body: String,
        previousCommit: GitCommitInfo? = nil, nextCommit: GitCommitInfo? = nil,
        stats: GitCommitStats = GitCommitStats(), files: [GitCommitFile] = []
    ) {
        self.hash = hash
        self.shortHash = shortHash
        self.author = author
        self.authorEmail = authorEmail
        self.date = date
        self.committer = committer
        self.committerEmail = committerEmail
        self.commitDate = commitDate
        self.message = message
        self.body = body
        self.previousCommit = previousCommit
        self.nextCommit = nextCommit
        self.stats = stats
        self.files = files
    }

    private enum CodingKeys: String, CodingKey {
        case hash, shortHash, author, authorEmail, date, committer, committerEmail, commitDate, message, body
        case previousCommit, nextCommit, stats, files
    }

    /// Encodes the neighbours as `null` when there are none, as the contract does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hash, forKey: .hash)
        try container.encode(shortHash, forKey: .shortHash)
        try container.encode(author, forKey: .author)
        try container.encode(authorEmail, forKey: .authorEmail)
        try container.encode(date, forKey: .date)
        try container.encode(committer, forKey: .committer)
        try container.encode(committerEmail, forKey: .committerEmail)
        try container.encode(commitDate, forKey: .commitDate)
        try container.encode(message, forKey: .message)
        try container.encode(body, forKey: .body)
        try container.encode(previousCommit, forKey: .previousCommit)
        try container.encode(nextCommit, forKey: .nextCommit)
        try container.encode(stats, forKey: .stats)
        try container.encode(files, forKey: .files)
    }
}

/// Lines added and removed by a commit, over all its files (a binary file counts 0 lines).
public struct GitCommitStats: Codable, Sendable, Hashable {
    /// How many files changed.
    public var files: Int
    /// Lines added.
    public var additions: Int
    /// Lines removed.
    public var deletions: Int

    /// Makes the totals.
    public init(files: Int = 0, additions: Int = 0, deletions: Int = 0) {
        self.files = files
        self.additions = additions
        self.deletions = deletions
    }
}

/// One file a commit changed.
public struct GitCommitFile: Codable, Sendable, Hashable {
    /// The path relative to the repository's root (the new path of a rename or copy).
    public var path: String
    /// For a rename or copy, the path it came from; absent otherwise.
    public var originalPath: String?
    /// The change's letter: one of `A M D T U X R C`.
    public var status: String
    /// The file's served path when it exists on disk now (for `/api/view`), else `nil`.
    public var workingTreePath: String?

    /// Describes a changed file.
    public init(path: String, originalPath: String? = nil, status: String, workingTreePath: String? = nil) {
        self.path = path
        self.originalPath = originalPath
        self.status = status
        self.workingTreePath = workingTreePath
    }

    private enum CodingKeys: String, CodingKey { case path, originalPath, status, workingTreePath }

    /// Encodes `workingTreePath` as `null` when the file is gone, as the contract does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(originalPath, forKey: .originalPath)
        try container.encode(status, forKey: .status)
        try container.encode(workingTreePath, forKey: .workingTreePath)
    }
}
