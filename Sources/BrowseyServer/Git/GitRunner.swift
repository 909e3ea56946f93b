#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the `git` executable for the git routes: as argv with no shell, standard input
/// `/dev/null`, standard error discarded (git's messages and paths never reach a client), a
/// fixed environment, options that keep a repository's own configuration from running commands
/// or changing the output, a time limit (then the child is killed) and an output cap.
///
/// The spawning follows the thumbnails' poster helpers (`posix_spawn`, a pipe read with `poll`
/// until a deadline); what differs is the environment, the exit status handed back rather than
/// thrown, and that output past the cap is kept up to the cap (a diff is cut, not lost).
struct GitRunner: Sendable {
    /// The result of one run.
    struct Output: Sendable {
        /// How the run ended.
        enum Ending: Sendable, Equatable {
            /// The child exited with this status.
            case exited(Int32)
            /// It outlived the time limit and was killed.
            case timedOut
            /// It wrote more than the cap and was killed; `bytes` holds the first part.
            case tooLarge
            /// It could not be started.
            case notStarted
        }

        /// Standard output, up to the cap.
        var bytes: [UInt8]
        /// How the run ended.
        var ending: Ending

        /// Whether git exited with status 0.
        var succeeded: Bool { ending == .exited(0) }

        /// Standard output as text, trailing white space trimmed.
        var text: String {
            var end = bytes.count
            while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }

    /// The `git` executable; `nil` when none was found (the routes answer 501).
    let executable: String?
    /// How long one command may run.
    var timeout: Duration = .seconds(5)
    /// The most one command may write.
    var outputLimit = 8 << 20
    /// A folder git may not look into or above for a repository (`GIT_CEILING_DIRECTORIES`):
    /// the served root's parent, so that discovery stops at the root.
    var ceiling: String?

    /// The environment every command gets, and nothing else: no system or global configuration
    /// (only the repository's own, overridden where it could run commands), no pager, no
    /// prompt for credentials, C messages.
    static let environment = [
        "PATH=/usr/bin:/bin:/usr/local/bin", "HOME=/nonexistent", "XDG_CONFIG_HOME=/nonexistent",
        "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat",
        "PAGER=cat", "LC_ALL=C", "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1", "GIT_ASKPASS=/bin/false",
        "SSH_ASKPASS=/bin/false", "GIT_EDITOR=/bin/false",
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
        let search = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/git"
            if access(candidate, X_OK) == 0 { return GitRunner(executable: candidate) }
        }
        return GitRunner(executable: nil)
    }

    /// Runs `git -C directory <options> <overrides> <arguments>`, blocking until it ends.
    /// `overrides` are more `-c` settings (a repository's filter drivers turned off).
    func run(
        _ arguments: [String], in directory: String, overrides: [String] = [], limit: Int? = nil
    ) -> Output {
        guard let executable else { return Output(bytes: [], ending: .notStarted) }
        let limit = limit ?? outputLimit
        var pipeEnds: [Int32] = [0, 0]
        // Close-on-exec from the start: a child another thread spawns meanwhile must not inherit
        // the write end, or reading to its end would wait for that child too.
        guard Self.makePipe(&pipeEnds) else { return Output(bytes: [], ending: .notStarted) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        let all = ["git", "-C", directory] + Self.globalOptions + overrides + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        let environment = Self.environment + (ceiling.map { ["GIT_CEILING_DIRECTORIES=" + $0] } ?? [])
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return Output(bytes: [], ending: .notStarted)
        }
        var output: [UInt8] = []
        var ending: Output.Ending?
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                ending = .timedOut
                break
            }
            let milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                    + 1)
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if output.count + count > limit {
                output.append(contentsOf: chunk[0..<(limit - output.count)])
                ending = .tooLarge
                break
            }
            output.append(contentsOf: chunk[0..<count])
        }
        close(readEnd)
        if ending != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let ending { return Output(bytes: output, ending: ending) }
        // Killed by a signal counts as a failure (status 128 + signal, as a shell says it).
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Output(bytes: output, ending: .exited(exit))
    }

    /// A pipe whose ends close on exec (the spawned child gets its own copy through `dup2`).
    /// Set right after `pipe` (Swift's Glibc module does not offer `pipe2`): the window in which
    /// another thread's spawn could inherit them is a few instructions wide.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }
}
