public import BrowseyAPI

extension APIClient {
    /// `GET /api/git`: the repository `path` lies in (branch, counts, last commit), or
    /// `isRepo: false`.
    public func gitStatus(at path: String = "/") async throws(BrowseyClientError) -> GitStatusResponse {
        try await json(GitStatusResponse.self, "GET", "/api/git", query: [("path", path)])
    }

    /// `GET /api/git/log`: a page of the repository's history, newest first (`limit` 1 to 100).
    public func gitLog(
        at path: String = "/", limit: Int = 25, skip: Int = 0
    ) async throws(BrowseyClientError) -> GitLogResponse {
        try await json(
            GitLogResponse.self, "GET", "/api/git/log",
            query: [("path", path), ("limit", String(limit)), ("skip", String(skip))])
    }

    /// `GET /api/git/commit`: one commit with its files, totals and (unless `includeAdjacent` is
    /// false) its newer and older neighbours.
    public func gitCommit(
        _ hash: String, at path: String = "/", includeAdjacent: Bool = true
    ) async throws(BrowseyClientError) -> GitCommitDetail {
        try await json(
            GitCommitResponse.self, "GET", "/api/git/commit",
            query: [("path", path), ("hash", hash), ("includeAdjacent", includeAdjacent ? nil : "0")]
        ).commit
    }

    /// `GET /api/git/changes`: the repository's changed entries.
    public func gitChanges(at path: String = "/") async throws(BrowseyClientError) -> GitChangesResponse {
        try await json(GitChangesResponse.self, "GET", "/api/git/changes", query: [("path", path)])
    }

    /// `GET /api/git/diff`: one file's diff (`file` relative to the repository's root): in the
    /// commit `hash`, or else in the working tree (the index's with `staged`).
    public func gitDiff(
        _ file: String, at path: String = "/", hash: String? = nil, staged: Bool = false,
        originalPath: String? = nil
    ) async throws(BrowseyClientError) -> GitDiffResponse {
        try await json(
            GitDiffResponse.self, "GET", "/api/git/diff",
            query: [
                ("path", path), ("file", file), ("hash", hash), ("staged", staged ? "1" : nil),
                ("originalPath", originalPath),
            ])
    }

    /// `POST /api/git/revert`: discards one file's changes (`file` as a ``GitChange`` names it);
    /// what it replaces goes to the server's trash (the answer's `trashIds`).
    public func gitRevert(
        _ file: String, in path: String = "/"
    ) async throws(BrowseyClientError) -> GitRevertResponse {
        try await json(
            GitRevertResponse.self, "POST", "/api/git/revert",
            body: GitRevertRequest(path: path, filePath: file))
    }
}
