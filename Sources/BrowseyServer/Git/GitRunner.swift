import FileTree

/// Runs the `git` executable for the git routes: as argv with no shell, standard input
/// `/dev/null`, standard error discarded (git's messages and paths never reach a client), a
/// fixed environment, options that keep a repository's own configuration from running commands
/// or changing the output, a time limit (then the child is killed) and an output cap.
///
/// The running is ``BoundedProcess``'s, as for the thumbnails' poster helpers; output past the
/// cap is kept up to the cap (a diff is cut, not lost).
struct GitRunner: Sendable {
    /// The result of one run.
    typealias Output = BoundedProcess.Output

    /// The `git` executable; `nil` when none was found (the routes answer 501).
    let executable: String?
    /// How long one command may run.
    var timeout: Duration = .seconds(5)
    /// The most one command may write.
    var outputLimit = 8 << 20
    /// A folder git may not look into or above for a repository (`GIT_CEILING_DIRECTORIES`):
    /// the served root's parent, so that discovery stops at the root.
    var ceiling: String?
    /// The served root's real path: git may read and write beneath it, and read the system's
    /// programs and libraries, nothing else (``Confinement``), so that no link in a repository
    /// (a loose object, a pack, an alternate, a work tree or a folder swapped for one between
    /// the checks and the run) makes it read another repository outside the root.
    var root: String?

    /// The environment every command gets, and nothing else: no system or global configuration
    /// (only the repository's own, overridden where it could run commands), no pager, no
    /// prompt for credentials, C messages.
    static let environment = [
        "PATH=/usr/bin:/bin:/usr/local/bin", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent",
        "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat",
        "PAGER=cat", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1", "GIT_ASKPASS=/bin/false",
        "SSH_ASKPASS=/bin/false", "GIT_EDITOR=/bin/false", "GIT_ATTR_NOSYSTEM=1",
    ]

    /// The options before every subcommand: no locks taken for reading, no file-system monitor,
    /// no hooks, real names rather than C-quoted ones, no colours, no signature checks, and
    /// pathspecs taken literally (a file named `*` or `:(glob)**` is that file alone).
    static let globalOptions = [
        "--no-pager", "--no-optional-locks", "--literal-pathspecs", "-c", "core.fsmonitor=false",
        "-c", "core.untrackedCache=false", "-c", "core.quotePath=false", "-c", "color.ui=false",
        "-c", "log.showSignature=false", "-c", "core.hooksPath=/dev/null", "-c", "diff.external=",
        "-c", "status.showUntrackedFiles=normal", "-c", "status.relativePaths=false",
        "-c", "status.renames=true", "-c", "diff.renames=true", "-c", "log.abbrevCommit=false",
        "-c", "log.showRoot=true", "-c", "i18n.logOutputEncoding=UTF-8",
    ]

    /// The runner for the `git` found in `path` (a `PATH`-style list; the server's own `PATH`
    /// when `nil`).
    static func find(path: String? = nil) -> GitRunner {
        GitRunner(executable: BoundedProcess.find("git", path: path))
    }

    /// Runs `git -C directory <options> <overrides> <arguments>`, blocking until it ends.
    /// `overrides` are more `-c` settings (a repository's filter drivers turned off).
    func run(
        _ arguments: [String], in directory: String, overrides: [String] = [], limit: Int? = nil
    ) -> Output {
        guard let executable else { return Output(bytes: [], ending: .notStarted) }
        return BoundedProcess.run(
            executable, arguments: ["git", "-C", directory] + Self.globalOptions + overrides + arguments,
            environment: Self.environment + (ceiling.map { ["GIT_CEILING_DIRECTORIES=" + $0] } ?? []),
            timeout: timeout, outputLimit: limit ?? outputLimit,
            confinement: root.map { Confinement.system(writable: [$0]) })
    }
}

extension BoundedProcess.Output {
    /// Whether git exited with status 0.
    var succeeded: Bool { ending == .exited(0) }

    /// Standard output as text, trailing white space trimmed.
    var text: String {
        var end = bytes.count
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
