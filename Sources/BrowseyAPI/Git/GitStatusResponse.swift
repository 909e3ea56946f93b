/// The answer to `GET /api/git`: whether the folder lies in a repository, and that repository's
/// branch, how many entries changed and its last commit. Never a 404: a folder outside any
/// repository answers `isRepo: false` with the other fields null or zero.
public struct GitStatusResponse: Codable, Sendable, Hashable {
    /// Whether the folder lies in a work tree whose root is inside the served root.
    public var isRepo: Bool
    /// The branch checked out; `"HEAD"` when detached, `nil` on an unborn branch.
    public var branch: String?
    /// Whether any of the counts is above 0.
    public var isDirty: Bool
    /// Entries with a change in the index.
    public var staged: Int
    /// Entries with a change in the work tree not in the index.
    public var unstaged: Int
    /// Untracked entries (an untracked folder counts once).
    public var untracked: Int
    /// The commit `HEAD` names; `nil` on an unborn branch.
    public var lastCommit: GitCommitInfo?
    /// The `origin` remote's URL, its user name and password taken out; `nil` when there is none.
    public var remoteUrl: String?
    /// The work tree's root as a filesystem path (the contract's field).
    public var repoRoot: String?
    /// The work tree's root as a served path (additive); `nil` when not a repository.
    public var repoPath: String?
    /// Why the status may be incomplete (additive): `"timeout"` when git took too long,
    /// `"status"` when `git status` failed otherwise (the counts then read 0); absent when
    /// everything was read.
    public var error: String?

    /// The answer for a folder that is not in a repository.
    public static let notARepository = GitStatusResponse(isRepo: false)

    /// Makes the answer.
    public init(
        isRepo: Bool, branch: String? = nil, isDirty: Bool = false, staged: Int = 0, unstaged: Int = 0,
        untracked: Int = 0, lastCommit: GitCommitInfo? = nil, remoteUrl: String? = nil,
        repoRoot: String? = nil, repoPath: String? = nil, error: String? = nil
    ) {
        self.isRepo = isRepo
        self.branch = branch
        self.isDirty = isDirty
        self.staged = staged
        self.unstaged = unstaged
        self.untracked = untracked
        self.lastCommit = lastCommit
        self.remoteUrl = remoteUrl
        self.repoRoot = repoRoot
        self.repoPath = repoPath
        self.error = error
    }

    private enum CodingKeys: String, CodingKey {
        case isRepo, branch, isDirty, staged, unstaged, untracked, lastCommit, remoteUrl, repoRoot, repoPath
        case error
    }

    /// Encodes the contract's nullable fields as `null`, never leaving them out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isRepo, forKey: .isRepo)
        try container.encode(branch, forKey: .branch)
        try container.encode(isDirty, forKey: .isDirty)
        try container.encode(staged, forKey: .staged)
        try container.encode(unstaged, forKey: .unstaged)
        try container.encode(untracked, forKey: .untracked)
        try container.encode(lastCommit, forKey: .lastCommit)
        try container.encode(remoteUrl, forKey: .remoteUrl)
        try container.encode(repoRoot, forKey: .repoRoot)
        try container.encodeIfPresent(repoPath, forKey: .repoPath)
        try container.encodeIfPresent(error, forKey: .error)
    }
}
