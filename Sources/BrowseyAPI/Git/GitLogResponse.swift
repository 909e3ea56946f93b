/// The answer to `GET /api/git/log`: a page of the history reachable from `HEAD`, newest first.
public struct GitLogResponse: Codable, Sendable, Hashable {
    /// The page's commits.
    public var commits: [GitCommitInfo]
    /// Whether older commits follow (ask again with `skip` past this page).
    public var hasMore: Bool
    /// Why the page may be incomplete (additive): `"timeout"`; absent otherwise.
    public var error: String?

    /// Makes the answer.
    public init(commits: [GitCommitInfo], hasMore: Bool, error: String? = nil) {
        self.commits = commits
        self.hasMore = hasMore
        self.error = error
    }
}
