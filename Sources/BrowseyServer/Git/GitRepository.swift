import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A git work tree found for a served folder, and the way every later command runs in it.
///
/// Found only inside the served root: git is told not to look above the root's parent
/// (`GIT_CEILING_DIRECTORIES`), and the work tree's root and its git directory, symlinks
/// resolved, must both lie inside the root's real path, and so must its common folder and its
/// objects, with alternates only inside it and no link among its objects folders or packs. A
/// repository above the root, a `.git` link or file leading out, a `core.worktree` set
/// elsewhere, or one borrowing its history from outside is no repository at all.
struct GitRepository: Sendable {
    /// What looking for a repository found.
    enum Lookup: Sendable {
        /// A repository inside the served root.
        case found(GitRepository)
        /// No repository (or one the rules refuse).
        case none
        /// git took too long to say.
        case timedOut
    }

    /// The work tree's root, symlinks resolved.
    let root: String
    /// The work tree's root as a served path (`/` for the served root).
    let servedPath: String
    /// The runner, with the repository's own filter drivers turned off.
    let runner: GitRunner
    /// The `-c` settings that turn off the repository's filter drivers.
    let overrides: [String]

    /// Looks for the repository `directory` (an absolute path under the served root) lies in.
    static func find(from directory: String, safePath: SafePath, runner: GitRunner) -> Lookup {
        guard let realStart = SafePath.realPath(directory), inside(realStart, safePath.realRoot) else {
            return .none
        }
        var runner = runner
        if safePath.realRoot != "/" { runner.ceiling = Paths.parent(of: safePath.realRoot) }
        runner.root = safePath.realRoot
        // Where the work tree and the git folder are, and what git reads besides: the common
        // folder and the objects (given from where git ran unless absolute).
        let found = runner.run(
            [
                "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir", "--git-path",
                "objects",
                "--git-path", "objects/info/alternates", "--git-path", "objects/info/http-alternates",
            ], in: realStart)
        if found.ending == .timedOut { return .timedOut }
        guard found.succeeded else { return .none }
        let lines = found.text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasPrefix("/") ? String($0) : realStart + "/" + $0
        }
        guard lines.count == 6, let root = SafePath.realPath(lines[0]),
            let gitDirectory = SafePath.realPath(lines[1]),
            inside(root, safePath.realRoot), inside(gitDirectory, safePath.realRoot),
            let servedPath = served(root, realRoot: safePath.realRoot)
        else { return .none }
        // Each inside the root too, with no link among the objects' entries or packs, and
        // alternates only inside the root (a repository made of another one's history outside
        // the root would show it; a clone made with `--shared` from one inside is fine).
        guard let common = SafePath.realPath(lines[2]), let objects = SafePath.realPath(lines[3]),
            inside(common, safePath.realRoot), inside(objects, safePath.realRoot), !holdsLinks(objects),
            !Paths.exists(lines[5]),
            alternatesStayInside(lines[4], objects: objects, realRoot: safePath.realRoot)
        else { return .none }
        // Filter drivers named in the repository's configuration would run on `status` and
        // `restore`: each is set to nothing for every command.
        let drivers = runner.run(["config", "-z", "--name-only", "--get-regexp", "^filter\\."], in: root)
        if drivers.ending == .timedOut { return .timedOut }
        var overrides: [String] = []
        var seen: Set<String> = []
        for key in drivers.bytes.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }) {
            guard let dot = key.lastIndex(of: "."), key.hasPrefix("filter.") else { continue }
            let name = String(key[key.index(key.startIndex, offsetBy: 7)..<dot])
            // A name `-c` cannot say exactly: the repository is not read.
            if name.contains("=") || name.contains("\n") { return .none }
            if seen.insert(name).inserted {
                for setting in ["clean", "smudge", "process"] {
                    overrides += ["-c", "filter.\(name).\(setting)="]
                }
                overrides += ["-c", "filter.\(name).required=false"]
            }
        }
        return .found(GitRepository(root: root, servedPath: servedPath, runner: runner, overrides: overrides))
    }

    /// Runs a git command in the work tree's root.
    func run(_ arguments: [String], limit: Int? = nil) -> GitRunner.Output {
        runner.run(arguments, in: root, overrides: overrides, limit: limit)
    }

    /// The served path of a path relative to the work tree's root.
    func servedPath(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return servedPath == "/" ? "/" + trimmed : servedPath + "/" + trimmed
    }

    /// The absolute path of a path relative to the work tree's root.
    func absolutePath(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return root == "/" ? "/" + trimmed : root + "/" + trimmed
    }

    /// Whether a path a client names inside the repository is acceptable: not empty, no NUL, not
    /// absolute, no `.` or `..` component and no empty one (a trailing `/` aside, as git writes
    /// an untracked folder). Pathspecs are literal, so no character is special beyond these.
    static func isValidFilePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.utf8.contains(0), !path.hasPrefix("/"), !path.contains("\\") else {
            return false
        }
        let body = path.hasSuffix("/") ? path.dropLast() : Substring(path)
        let components = body.split(separator: "/", omittingEmptySubsequences: false)
        return !components.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    /// Whether every folder of objects the alternates file at `path` names (if there is one) lies
    /// inside `realRoot`, has no alternates of its own and holds no link: git reads them as its
    /// own objects.
    private static func alternatesStayInside(_ path: String, objects: String, realRoot: String) -> Bool {
        guard Paths.exists(path) else { return true }
        guard let text = smallText(at: path) else { return false }
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) where !line.hasPrefix("#") {
            // A quoted name is C-quoted by git's rules: refused rather than decoded.
            guard !line.hasPrefix("\""),
                let real = SafePath.realPath(line.hasPrefix("/") ? String(line) : objects + "/" + line),
                inside(real, realRoot), !Paths.exists(real + "/info/alternates"),
                !Paths.exists(real + "/info/http-alternates"), !holdsLinks(real)
            else { return false }
        }
        return true
    }

    /// The text of a small regular file (at most 64 KiB), not through a link; `nil` otherwise.
    private static func smallText(at path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard (try? FileStatus(descriptor: descriptor))?.type == .regular,
            let bytes = FileContents.read(descriptor, limit: 65537), bytes.count <= 65536
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the objects folder or its packs hold a link: git would read through it, wherever
    /// it leads.
    private static func holdsLinks(_ objects: String) -> Bool {
        let reader = DirectoryReader(filter: EntryFilter(includesHidden: true))
        for folder in [objects, objects + "/pack"] {
            guard let listing = try? reader.listing(at: folder) else { continue }
            if listing.items.contains(where: { $0.type == .symlink }) { return true }
        }
        return false
    }

    static func inside(_ path: String, _ folder: String) -> Bool {
        SafePath.isInside(path, folder)
    }

    private static func served(_ real: String, realRoot: String) -> String? {
        if real == realRoot { return "/" }
        if realRoot == "/" { return real }
        guard real.hasPrefix(realRoot + "/") else { return nil }
        return String(real.dropFirst(realRoot.count))
    }
}
