internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run for its standard output, bounded: as argv with no shell, standard error
/// discarded, a time limit (then it is killed) and a cap on what it may write (then it is
/// killed, and what it wrote up to the cap is kept). What the git routes and the thumbnails'
/// poster helpers (ffmpeg, pdftoppm) run their programs with.
///
/// ```swift
/// guard let git = BoundedProcess.find("git") else { return }
/// let output = BoundedProcess.run(git, arguments: ["git", "--version"], timeout: .seconds(5), outputLimit: 4096)
/// if output.ending == .exited(0) { print(String(decoding: output.bytes, as: UTF8.self)) }
/// ```
public enum BoundedProcess {
    /// What a program reads as its standard input.
    public enum Input: Sendable, Equatable {
        /// `/dev/null`.
        case nothing
        /// This open descriptor (the caller keeps and closes it).
        case descriptor(Int32)
    }

    /// How a run ended.
    public enum Ending: Sendable, Equatable {
        /// The program exited with this status (128 + the signal when a signal ended it).
        case exited(Int32)
        /// It outlived the time limit and was killed.
        case timedOut
        /// It wrote more than the cap and was killed.
        case tooLarge
        /// It could not be started.
        case notStarted
    }

    /// What a run wrote, and how it ended.
    public struct Output: Sendable {
        /// Standard output, up to the cap.
        public var bytes: [UInt8]
        /// How the run ended.
        public var ending: Ending

        /// What a run wrote and how it ended.
        public init(bytes: [UInt8], ending: Ending) {
            self.bytes = bytes
            self.ending = ending
        }
    }

    /// The first executable file named `name` in `path` (a `PATH`-style list; the process's own
    /// `PATH` when `nil`).
    public static func find(_ name: String, path: String? = nil) -> String? {
        let search = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` (argv, its first element included), blocking until it
    /// ends: `environment` (`NAME=value` strings) or, when `nil`, this process's own. With a
    /// `confinement`, the program can reach only what it allows (and the folder it is in, with,
    /// for a `bin`, its prefix's `lib`, `lib64`, `libexec` and `share`: a program's own
    /// libraries), where the kernel can confine it (``Confinement/kernelVersion``); elsewhere it
    /// runs as without one.
    public static func run(
        _ executable: String, arguments: [String], environment: [String]? = nil, input: Input = .nothing,
        timeout: Duration, outputLimit: Int, confinement: Confinement? = nil
    ) -> Output {
        var pipeEnds: [Int32] = [0, 0]
        // Close-on-exec at once (Swift's Glibc module does not offer `pipe2`): a child another
        // thread spawns meanwhile must not inherit the write end, or reading to its end would
        // wait for that child too.
        guard pipe(&pipeEnds) == 0 else { return Output(bytes: [], ending: .notStarted) }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .nothing: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        posix_spawn_file_actions_addclose(&actions, writeEnd)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned: Int32
        if let confinement, Confinement.kernelVersion > 0 {
            spawned = spawnConfined(
                executable, argv: argv, envp: envp, input: input, output: writeEnd, confinement: confinement,
                pid: &pid)
        } else {
            spawned =
                envp.map { posix_spawn(&pid, executable, &actions, nil, argv, $0) }
                ?? posix_spawn(&pid, executable, &actions, nil, argv, environ)
        }
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            return Output(bytes: [], ending: .notStarted)
        }
        var output: [UInt8] = []
        var ending: Ending?
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
            if poll(&descriptor, 1, milliseconds) <= 0 { continue }  // the deadline, or EINTR
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if output.count + count > outputLimit {
                output.append(contentsOf: chunk[0..<(outputLimit - output.count)])
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
        // Killed by a signal: 128 + the signal, as a shell says it.
        return Output(
            bytes: output, ending: .exited(status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)))
    }

    /// Starts `executable` confined (see ``Confinement``): 0, or an errno.
    private static func spawnConfined(
        _ executable: String, argv: [UnsafeMutablePointer<CChar>?], envp: [UnsafeMutablePointer<CChar>?]?,
        input: Input, output: Int32, confinement: Confinement, pid: inout pid_t
    ) -> Int32 {
        var readable = confinement.readable
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        if realpath(executable, &resolved) != nil {
            // The program's folder, and when it is a `bin`, its prefix's libraries and data
            // (`~/.local/bin/tool` reads `~/.local/lib`, not all of `~/.local`).
            let folder = PathText.parent(
                of: String(decoding: resolved.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
            readable.append(folder)
            let name = PathText.lastComponent(of: folder)
            if name == "bin" || name == "sbin" {
                let prefix = PathText.parent(of: folder)
                readable += ["lib", "lib64", "libexec", "share"].map { PathText.join(prefix, $0) }
            }
        }
        let reads: [UnsafePointer<CChar>?] = readable.map { UnsafePointer(strdup($0)) }
        let writes: [UnsafePointer<CChar>?] = confinement.writable.map { UnsafePointer(strdup($0)) }
        defer {
            for pointer in reads + writes { free(UnsafeMutablePointer(mutating: pointer)) }
        }
        let standardInput: Int32
        switch input {
        case .nothing: standardInput = -1
        case .descriptor(let descriptor): standardInput = descriptor
        }
        var child: Int32 = 0
        let started = argv.withUnsafeBufferPointer { argv in
            let environment = envp ?? Self.currentEnvironment()
            return environment.withUnsafeBufferPointer { environment in
                reads.withUnsafeBufferPointer { reads in
                    writes.withUnsafeBufferPointer { writes in
                        confinement.readableDescriptors.withUnsafeBufferPointer { descriptors in
                            cft_spawn_confined(
                                executable, argv.baseAddress, environment.baseAddress, standardInput, output,
                                reads.baseAddress, Int32(reads.count), descriptors.baseAddress,
                                Int32(descriptors.count), writes.baseAddress, Int32(writes.count), &child)
                        }
                    }
                }
            }
        }
        pid = pid_t(child)
        return started
    }

    /// This process's environment, as `envp` (the pointers are the process's own).
    private static func currentEnvironment() -> [UnsafeMutablePointer<CChar>?] {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var cursor = environ
        while let entry = cursor.pointee {
            entries.append(entry)
            cursor += 1
        }
        return entries + [nil]
    }
}
