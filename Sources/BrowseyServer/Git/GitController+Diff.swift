import BrowseyAPI
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension GitController {
    /// `GET /api/git/diff?path=&file=[&hash=][&staged=1][&originalPath=]`: one file's diff, parsed
    /// into hunks. With `hash`, what that commit changed (against its first parent); without,
    /// the working tree's change (`staged=1`: the index's), an untracked file as all added.
    func diff(_ request: Request, context: FileServerContext) async throws -> Response {
        let parameters = request.uri.queryParameters
        let file = parameters.get("file") ?? ""
        let original = parameters.get("originalPath").flatMap { $0.isEmpty ? nil : $0 }
        let hash = parameters.get("hash").flatMap { $0.isEmpty ? nil : $0 }
        guard case .found(let repository) = try await repository(request, context) else {
            throw APIError(.notFound, "Not a git repository", code: .notARepository)
        }
        guard GitRepository.isValidFilePath(file), original.map(GitRepository.isValidFilePath) ?? true else {
            throw APIError(.badRequest, "Invalid file path", code: .invalidFilePath)
        }
        guard mayShow(file, in: repository, context),
            original.map({ mayShow($0, in: repository, context) }) ?? true
        else { throw APIError(.notFound, "File not found", code: .notFound) }
        let paths = ["--", file] + (original.map { [$0] } ?? [])
        let options = [
            "--no-color", "--no-textconv", "--no-ext-diff", "--find-renames", "-U3", "--src-prefix=a/",
            "--dst-prefix=b/",
        ]
        let output: GitRunner.Output
        if let hash {
            guard Self.isCommitHash(hash) else {
                throw APIError(.badRequest, "Invalid commit hash", code: .invalidCommit)
            }
            let full = try await blocking {
                repository.run(["rev-parse", "--verify", "--quiet", "--end-of-options", hash + "^{commit}"])
            }
            try Self.checkTime(full)
            guard full.succeeded, Self.isCommitHash(full.text) else {
                throw APIError(.notFound, "Commit not found", code: .notFound)
            }
            output = try await blocking {
                repository.run(
                    ["show", "--format=", "--patch", "--diff-merges=first-parent", "--root"] + options + [
                        full.text
                    ]
                        + paths, limit: Self.diffByteLimit)
            }
        } else {
            let staged = parameters.get("staged") == "1"
            output = try await blocking {
                let tracked = repository.run(
                    ["diff"] + (staged ? ["--cached"] : []) + options + paths, limit: Self.diffByteLimit)
                guard !staged, tracked.succeeded, tracked.bytes.isEmpty else { return tracked }
                // Nothing tracked changed: an untracked file reads as all added.
                let others = repository.run(["ls-files", "--others", "--exclude-standard", "-z", "--", file])
                guard others.succeeded, GitCommitRecords.strings(others.bytes) == [file],
                    Self.isRegularFileInside(repository.absolutePath(of: file), repository.root)
                else { return tracked }
                var untracked = repository.run(
                    ["diff", "--no-index"] + options + ["--", "/dev/null", file], limit: Self.diffByteLimit)
                // `--no-index` exits 1 when the two differ.
                if untracked.ending == .exited(1) { untracked.ending = .exited(0) }
                return untracked
            }
        }
        try Self.checkTime(output)
        guard output.succeeded || output.ending == .tooLarge else {
            throw APIError(.internalServerError, "Failed to read the diff", code: .internalError)
        }
        let parsed = GitDiffParser().parse(
            output.bytes, path: file, originalPath: original, cut: output.ending == .tooLarge)
        return JSONBody.response(parsed)
    }

    /// Whether `path` is a regular file (not through a link) whose real place is inside `root`.
    static func isRegularFileInside(_ path: String, _ root: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let real = SafePath.realPath(path)
        else { return false }
        return SafePath.isInside(real, root)
    }
}
