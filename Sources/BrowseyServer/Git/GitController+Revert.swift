import BrowseyAPI
import FileTree
import Hummingbird
import NIOPosix

extension GitController {
    /// The body of a revert as it arrives: either field may be missing.
    private struct RevertBody: Decodable {
        var path: String?
        var filePath: String?
    }

    /// `POST /api/git/revert {path, filePath}`: discards one file's changes, as the server's own
    /// fresh `git status` describes them, never as the client does.
    ///
    /// Nothing is lost for good while the trash is on: an untracked or newly added file is moved
    /// to the trash; a tracked file's current version is moved to the trash before
    /// `git restore --staged --worktree` puts back `HEAD`'s. An untracked folder holding a git
    /// repository is refused (409). Each target is opened below the root and checked to lie in
    /// the repository right before it moves.
    func revert(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(RevertBody.self, from: request)
        guard let path = body.path, !path.isEmpty, let filePath = body.filePath, !filePath.isEmpty else {
            throw APIError(.badRequest, "path and filePath are required", code: .invalidBody)
        }
        let folder = try resolve(path: path, context, notFound: "Directory not found", need: .read)
        guard case .found(let repository) = try await repository(for: folder, context) else {
            throw APIError(.notFound, "Not a git repository", code: .notARepository)
        }
        guard GitRepository.isValidFilePath(filePath) else {
            throw APIError(.badRequest, "Invalid file path", code: .invalidFilePath)
        }
        let status = try await blocking {
            repository.run(["status", "--porcelain=v2", "-z", "--untracked-files=normal"])
        }
        try Self.checkTime(status)
        guard status.succeeded else { throw APIError.internalError }
        let entries = GitStatusEntries(status.bytes).changes.filter {
            ($0.path == filePath || $0.originalPath == filePath) && mayShow($0.path, in: repository, context)
                && ($0.originalPath.map { mayShow($0, in: repository, context) } ?? true)
        }
        guard !entries.isEmpty else {
            throw APIError(.notFound, "File has no git changes", code: .noChanges)
        }
        // Every path the revert touches must be writable by this request.
        var targets: [String: SafePath.Resolved] = [:]
        for entry in entries {
            for name in [entry.path] + (entry.originalPath.map { [$0] } ?? []) {
                targets[name] = try resolveForWriting(
                    repository.servedPath(of: name), context, notFound: "File not found")
            }
        }
        let work = RevertWork(repository: repository, safePath: safePath, trash: trash, targets: targets)
        let result = try await NIOThreadPool.singleton.runIfActive { () -> Result<[String], APIError> in
            var trashIds: [String] = []
            for entry in entries {
                do throws(APIError) {
                    trashIds += try work.revert(entry)
                } catch {
                    return .failure(error)
                }
            }
            return .success(trashIds)
        }
        let trashIds = try result.get()
        record(
            "git-revert", repository.servedPath(of: filePath), context,
            detail: trashIds.isEmpty ? nil : "trash " + trashIds.joined(separator: " "))
        return JSONBody.response(GitRevertResponse(trashIds: trashIds))
    }
}

/// The steps of one revert, run off the async pool.
private struct RevertWork: Sendable {
    let repository: GitRepository
    let safePath: SafePath
    let trash: Trash?
    /// Each path the revert touches, resolved for writing.
    let targets: [String: SafePath.Resolved]

    /// Reverts one entry; answers the trash entries made.
    func revert(_ entry: GitChange) throws(APIError) -> [String] {
        if entry.indexStatus == "?" {
            let folder = repository.absolutePath(of: entry.path)
            if entry.path.hasSuffix("/"), holdsRepository(folder) {
                throw APIError(
                    .conflict, "The untracked folder holds a git repository: remove it by hand",
                    code: .nestedRepository)
            }
            return try putAside(entry.path, folders: true).map { [$0] } ?? []
        }
        if entry.indexStatus == "A" {
            try git(["restore", "--staged", "--", entry.path], failure: "Failed to unstage added file")
            return try putAside(entry.path, folders: false).map { [$0] } ?? []
        }
        // Tracked: the work tree's version goes to the trash, then HEAD's comes back.
        var ids: [String] = []
        if let id = try putAside(entry.path, folders: false) { ids.append(id) }
        try git(
            ["restore", "--staged", "--worktree", "--"] + (entry.originalPath.map { [$0] } ?? []) + [
                entry.path
            ],
            failure: "Failed to revert tracked file")
        return ids
    }

    private func git(_ arguments: [String], failure: String) throws(APIError) {
        let output = repository.run(arguments)
        try GitController.checkTime(output)
        guard output.succeeded else { throw APIError(.internalServerError, failure, code: .internalError) }
    }

    /// Moves the item at `path` (relative to the repository) to the trash, or deletes it when
    /// the trash is off; a folder only when `folders` (a tracked folder is a submodule, left to
    /// git). Answers the trash entry, `nil` when nothing was there.
    private func putAside(_ path: String, folders: Bool) throws(APIError) -> String? {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let target = targets[path] ?? targets[trimmed] else { throw APIError.internalError }
        // The folder it is in, symlinks resolved, must lie in the repository.
        guard let real = SafePath.realPath(Paths.parent(of: repository.absolutePath(of: trimmed))),
            SafePath.isInside(real, repository.root)
        else { throw APIError.invalidPath }
        do throws(FileTreeError) {
            let (folder, name) = try safePath.parent(forWriting: target)
            guard let status = folder.status(of: name) else { return nil }
            if status.type == .directory && !folders { return nil }
            if let trash {
                return try trash.put(named: name, in: folder, originalPath: target.relative).id
            }
            try FileOperations.remove(named: name, in: folder)
            return nil
        } catch {
            throw APIError.fromWrite(error)
        }
    }

    /// Whether a folder holds a `.git` anywhere below it (a nested repository or submodule).
    private func holdsRepository(_ folder: String) -> Bool {
        var found = false
        _ = try? DirectoryReader().walk(at: folder) { entry, _ in
            if entry.name == ".git" {
                found = true
                return .stop
            }
            return .continue
        }
        return found
    }
}
