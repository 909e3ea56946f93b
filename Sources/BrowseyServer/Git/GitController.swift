import BrowseyAPI
import FileTree
import Hummingbird
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The git routes: `GET /api/git` (status), `/api/git/log`, `/api/git/commit`,
/// `/api/git/changes`, `/api/git/diff`, and `POST /api/git/revert` on a writable server.
///
/// Every request resolves its `path` as `/api/list` does and must be allowed to read there; the
/// repository is looked for from that folder (a file's parent) and must lie inside the served
/// root (``GitRepository``). git runs through ``GitRunner``: fixed arguments, a fixed
/// environment, a time limit and an output cap per command. Names git reports are shown only
/// where the rules would list them: hidden and ignored names stay hidden, and with accounts only
/// what the user may read is listed.
struct GitController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// How git runs; its `executable` is `nil` when none was found.
    let runner: GitRunner
    /// Where a revert puts what it replaces; `nil` when deletes are for good.
    let trash: Trash?
    var audit: AuditLog?

    /// How many commits a log page holds at most.
    static let logLimit = 100
    /// How far back the neighbours of a commit are looked for.
    static let adjacencyDepth = 10_000
    /// The most bytes of diff output read for one file.
    static let diffByteLimit = 1 << 20

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/git") { request, context in try await status(request, context: context) }
        group.get("/api/git/log") { request, context in try await log(request, context: context) }
        group.get("/api/git/commit") { request, context in try await commit(request, context: context) }
        group.get("/api/git/changes") { request, context in try await changes(request, context: context) }
        group.get("/api/git/diff") { request, context in try await diff(request, context: context) }
        group.post("/api/git/revert") { request, context in try await revert(request, context: context) }
    }

    // MARK: Finding the repository

    /// The request's folder (its `path`, resolved and allowed) and the repository it lies in.
    func repository(
        _ request: Request, _ context: FileServerContext, need: RequestAccess.Need = .read
    ) async throws -> GitRepository.Lookup {
        let folder = try resolve(
            request, context, required: false, notFound: "Directory not found", need: need)
        return try await repository(for: folder, context)
    }

    /// The repository `folder` lies in: looked for from the folder, or a file's parent; the
    /// request must be allowed to read the repository's root.
    func repository(
        for folder: SafePath.Resolved, _ context: FileServerContext
    ) async throws -> GitRepository.Lookup {
        guard runner.executable != nil else {
            throw APIError(
                .init(code: 501, reasonPhrase: "Not Implemented"), "git is not installed on the server",
                code: .gitMissing)
        }
        let safePath = self.safePath
        let runner = self.runner
        let lookup = try await NIOThreadPool.singleton.runIfActive { () -> GitRepository.Lookup in
            var start = folder.absolute
            // A file cannot be git's working directory: its folder is asked instead.
            var status = stat()
            if stat(start, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
                start = Paths.parent(of: start)
            }
            // A path that does not exist: the nearest folder that does.
            while SafePath.realPath(start) == nil, start != "/", start.count > 1 {
                start = Paths.parent(of: start)
            }
            return GitRepository.find(from: start, safePath: safePath, runner: runner)
        }
        if case .found(let repository) = lookup {
            // Reading a repository's state reads its root folder's contents.
            let root = SafePath.Resolved(
                absolute: safePath.root == "/"
                    ? repository.servedPath : Paths.join(safePath.root, repository.servedPath),
                relative: repository.servedPath)
            guard repository.servedPath == "/" || (try? safePath.lexical(repository.servedPath)) != nil,
                context.access.mayRead(root.relative)
            else { return .none }
        }
        return lookup
    }

    /// Whether a path git reports may be shown to this request: its served path passes the
    /// rules on names (hidden, ignored) and, with accounts, the user may read it.
    func mayShow(_ path: String, in repository: GitRepository, _ context: FileServerContext) -> Bool {
        guard let resolved = try? safePath.lexical(repository.servedPath(of: path)) else { return false }
        return context.access.mayRead(resolved.relative)
    }

    /// Runs git work on NIO's blocking pool.
    func blocking<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async throws -> Value {
        try await NIOThreadPool.singleton.runIfActive(work)
    }

    // MARK: Status

    /// `GET /api/git?path=`: the repository's branch, counts, last commit and remote. The
    /// repository's root must be readable by the request (checked in ``repository(for:_:)``).
    func status(_ request: Request, context: FileServerContext) async throws -> Response {
        // Asked wherever a listing is (the web UI asks on every folder): a folder the request
        // may only see is answered as no repository, never as an error.
        guard case .found(let repository) = try await repository(request, context, need: .see) else {
            return JSONBody.response(GitStatusResponse.notARepository)
        }
        let answer = try await blocking {
            () -> (GitStatusEntries?, GitRunner.Output, GitRunner.Output, Bool) in
            let status = repository.run([
                "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal",
            ])
            let last = repository.run([
                "log", "-1", "-z", "--no-textconv", GitCommitRecords.infoFormat, "HEAD", "--",
            ])
            let remote = repository.run(["remote", "get-url", "origin"])
            return (
                status.succeeded ? GitStatusEntries(status.bytes) : nil, last, remote,
                status.ending == .timedOut
            )
        }
        let (entries, last, remote, statusTimedOut) = answer
        var response = GitStatusResponse(
            isRepo: true, repoRoot: repository.root, repoPath: repository.servedPath)
        if let entries {
            let shown = entries.changes.filter { mayShow($0.path, in: repository, context) }
            response.branch = entries.branch
            response.staged = GitStatusEntries.staged(shown).count
            response.unstaged = GitStatusEntries.unstaged(shown).count
            response.untracked = GitStatusEntries.untracked(shown).count
            response.isDirty = response.staged + response.unstaged + response.untracked > 0
        } else {
            response.error = statusTimedOut ? "timeout" : "status"
        }
        response.lastCommit = last.succeeded ? GitCommitRecords.infos(last.bytes).first : nil
        response.remoteUrl = remote.succeeded ? Self.withoutUserInfo(remote.text) : nil
        if last.ending == .timedOut || remote.ending == .timedOut { response.error = "timeout" }
        return JSONBody.response(response)
    }

    /// A remote URL without the user name and password a `scheme://user:password@host` form
    /// may carry; other forms (`user@host:path`, paths) as they are.
    static func withoutUserInfo(_ url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + String(rest[rest.index(after: at)...])
    }

    // MARK: Log

    /// `GET /api/git/log?path=&limit=&skip=`: a page of `HEAD`'s history, newest first.
    func log(_ request: Request, context: FileServerContext) async throws -> Response {
        let limit = min(
            max(Self.leadingInteger(request.uri.queryParameters.get("limit")) ?? 25, 1), Self.logLimit)
        let skip = max(Self.leadingInteger(request.uri.queryParameters.get("skip")) ?? 0, 0)
        guard case .found(let repository) = try await repository(request, context) else {
            return JSONBody.response(GitLogResponse(commits: [], hasMore: false))
        }
        let output = try await blocking {
            repository.run([
                "log", "-z", "--no-textconv", GitCommitRecords.infoFormat, "-n", String(limit + 1),
                "--skip=\(skip)", "HEAD", "--",
            ])
        }
        var commits = output.succeeded ? GitCommitRecords.infos(output.bytes) : []
        let hasMore = commits.count > limit
        if hasMore { commits.removeLast(commits.count - limit) }
        return JSONBody.response(
            GitLogResponse(
                commits: commits, hasMore: hasMore, error: output.ending == .timedOut ? "timeout" : nil))
    }

    /// The integer a query value starts with (`"10abc"` is 10); `nil` when it starts with none.
    static func leadingInteger(_ value: String?) -> Int? {
        guard let value else { return nil }
        var text = Substring(value)
        let negative = text.first == "-"
        if negative || text.first == "+" { text = text.dropFirst() }
        let digits = text.prefix { $0.isASCII && $0.isNumber }.prefix(9)
        guard let number = Int(digits) else { return nil }
        return negative ? -number : number
    }
}
