/// The answer to `GET /api/git/changes`: the repository's changed entries, in git's path order,
/// sorted into the index's changes, the work tree's and the untracked entries.
public struct GitChangesResponse: Codable, Sendable, Hashable {
    /// The repository's root as a served path (`/` when it is the served root); `nil` when the
    /// folder is not in a repository.
    public var repoPath: String?
    /// Entries whose index status is not a space.
    public var staged: [GitChange]
    /// Entries whose work-tree status is not a space (an entry may be in both lists).
    public var unstaged: [GitChange]
    /// Untracked entries; an untracked folder is one entry ending in `/`.
    public var untracked: [GitChange]
    /// Why the lists may be incomplete (additive): `"timeout"`; absent otherwise.
    public var error: String?

    /// Makes the answer.
    public init(
        repoPath: String?, staged: [GitChange] = [], unstaged: [GitChange] = [], untracked: [GitChange] = [],
        error: String? = nil
    ) {
        self.repoPath = repoPath
        self.staged = staged
        self.unstaged = unstaged
        self.untracked = untracked
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case repoPath, staged, unstaged, untracked, error }

    /// Encodes `repoPath` as `null` when there is none, as the contract does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(repoPath, forKey: .repoPath)
        try container.encode(staged, forKey: .staged)
        try container.encode(unstaged, forKey: .unstaged)
        try container.encode(untracked, forKey: .untracked)
        try container.encodeIfPresent(error, forKey: .error)
    }
}

/// One changed entry of `git status`, its path relative to the repository's root with `/`
/// separators, exactly as on disk (never C-quoted).
public struct GitChange: Codable, Sendable, Hashable {
    /// The path relative to the repository's root (the new path of a rename).
    public var path: String
    /// The index's status letter (`X`): a space when unchanged, `?` when untracked.
    public var indexStatus: String
    /// The work tree's status letter (`Y`): a space when unchanged, `?` when untracked.
    public var workTreeStatus: String
    /// For a rename, the path it had; absent otherwise.
    public var originalPath: String?

    /// Describes a change.
    public init(path: String, indexStatus: String, workTreeStatus: String, originalPath: String? = nil) {
        self.path = path
        self.indexStatus = indexStatus
        self.workTreeStatus = workTreeStatus
        self.originalPath = originalPath
    }
}
