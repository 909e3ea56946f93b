import BrowseyAPI
import Hummingbird

extension GitController {
    /// `GET /api/git/commit?path=&hash=&includeAdjacent=`: one commit, its files, totals and
    /// neighbours. The hash must be hex and name a commit (`^{commit}`): a blob, tree or an
    /// option never reaches `git show`.
    func commit(_ request: Request, context: FileServerContext) async throws -> Response {
        let hash = request.uri.queryParameters.get("hash") ?? ""
        guard !hash.isEmpty else { throw APIError(.badRequest, "hash is required", code: .invalidCommit) }
        guard case .found(let repository) = try await repository(request, context) else {
            throw APIError(.notFound, "Not a git repository", code: .notARepository)
        }
        guard Self.isCommitHash(hash) else {
            throw APIError(.badRequest, "Invalid commit hash", code: .invalidCommit)
        }
        let adjacent = request.uri.queryParameters.get("includeAdjacent") != "0"
        let full = try await blocking {
            repository.run(["rev-parse", "--verify", "--quiet", "--end-of-options", hash + "^{commit}"])
        }
        try Self.checkTime(full)
        guard full.succeeded, Self.isCommitHash(full.text) else {
            throw APIError(.notFound, "Commit not found", code: .notFound)
        }
        let name = full.text
        let outputs = try await blocking { () -> [GitRunner.Output] in
            let format = "--format=%H%x00%h%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%s%x00%b"
            let common = [
                "--no-textconv", "--no-ext-diff", "--find-renames", "--diff-merges=first-parent", "--root",
            ]
            var outputs = [
                repository.run(["show", "-s", "--no-textconv", format, name, "--"]),
                repository.run(["show", "--format=", "--name-status", "-z"] + common + [name, "--"]),
                repository.run(["show", "--format=", "--numstat", "-z"] + common + [name, "--"]),
            ]
            if adjacent {
                outputs.append(
                    repository.run(["rev-list", "--max-count=\(Self.adjacencyDepth)", "HEAD", "--"]))
            }
            return outputs
        }
        for output in outputs.prefix(3) { try Self.checkTime(output) }
        let fields = outputs[0].bytes.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard outputs[0].succeeded, fields.count >= 10 else {
            throw APIError(.internalServerError, "Failed to parse commit details", code: .internalError)
        }
        guard outputs[1].succeeded else {
            throw APIError(.internalServerError, "Failed to read commit files", code: .internalError)
        }
        guard outputs[2].succeeded else {
            throw APIError(.internalServerError, "Failed to read commit stats", code: .internalError)
        }
        var detail = GitCommitDetail(
            hash: fields[0], shortHash: fields[1], author: fields[2], authorEmail: fields[3], date: fields[4],
            committer: fields[5], committerEmail: fields[6], commitDate: fields[7], message: fields[8],
            body: fields[9...].joined(separator: "\u{0}").trimmingTrailingWhitespace,
            stats: GitCommitRecords.stats(outputs[2].bytes))
        let shown = GitCommitRecords.files(outputs[1].bytes).filter {
            mayShow($0.path, in: repository, context)
        }
        if shown.count != GitCommitRecords.files(outputs[1].bytes).count {
            // With names left out, the totals would say what the list does not: count the list.
            detail.stats.files = shown.count
        }
        detail.files = shown.map { file in
            var file = file
            let served = repository.servedPath(of: file.path)
            if let resolved = try? safePath.resolve(served),
                Paths.exists(repository.absolutePath(of: file.path))
            {
                file.workingTreePath = resolved.relative
            }
            return file
        }
        if adjacent, outputs.count > 3, outputs[3].succeeded {
            let history = outputs[3].text.split(separator: "\n").map(String.init)
            if let index = history.firstIndex(of: name) {
                let newer = index > 0 ? history[index - 1] : nil
                let older = index + 1 < history.count ? history[index + 1] : nil
                let names = [newer, older].compactMap { $0 }
                if !names.isEmpty {
                    let infos = try await blocking {
                        repository.run(
                            ["log", "--no-walk=unsorted", "-z", "--no-textconv", GitCommitRecords.infoFormat]
                                + names
                                + ["--"])
                    }
                    let found = GitCommitRecords.infos(infos.bytes)
                    detail.previousCommit = found.first { $0.hash == newer }
                    detail.nextCommit = found.first { $0.hash == older }
                }
            }
        }
        return JSONBody.response(GitCommitResponse(commit: detail))
    }

    /// Whether `text` has the form of an object name: 7 to 64 hex digits, nothing else.
    static func isCommitHash(_ text: String) -> Bool {
        (7...64).contains(text.utf8.count)
            && text.utf8.allSatisfy { $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit }
    }

    /// A command that ran out of time is answered 504, not taken for "not found".
    static func checkTime(_ output: GitRunner.Output) throws(APIError) {
        if output.ending == .timedOut {
            throw APIError(.gatewayTimeout, "git took too long to answer", code: .gitTimeout)
        }
    }

    // MARK: Changes

    /// `GET /api/git/changes?path=`: the whole repository's changed entries, by kind.
    func changes(_ request: Request, context: FileServerContext) async throws -> Response {
        guard case .found(let repository) = try await repository(request, context) else {
            return JSONBody.response(GitChangesResponse(repoPath: nil))
        }
        let output = try await blocking {
            repository.run(["status", "--porcelain=v2", "-z", "--untracked-files=normal"])
        }
        guard output.succeeded else {
            return JSONBody.response(
                GitChangesResponse(repoPath: nil, error: output.ending == .timedOut ? "timeout" : "status"))
        }
        let shown = GitStatusEntries(output.bytes).changes.filter {
            mayShow($0.path, in: repository, context)
        }
        return JSONBody.response(
            GitChangesResponse(
                repoPath: repository.servedPath, staged: GitStatusEntries.staged(shown),
                unstaged: GitStatusEntries.unstaged(shown), untracked: GitStatusEntries.untracked(shown)))
    }
}

extension String {
    /// The text without white space at its end.
    var trimmingTrailingWhitespace: String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
