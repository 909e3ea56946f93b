import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A helper program run with fixed arguments (no shell), reading a file as its standard input
/// and writing its answer to standard output: bounded in time and in how much it may write.
enum ChildProcess {
    /// The first executable file named `name` in `PATH`.
    static func find(_ name: String, path: String? = nil) -> String? {
        let search = path ?? getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for folder in search.split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, `input` as its standard input; its standard output,
    /// or an error when it fails, outlives `timeout` (then it is killed) or writes more than
    /// `outputLimit` bytes.
    static func run(
        _ executable: String, _ arguments: [String], input: Int32, timeout: Duration, outputLimit: Int
    ) throws(ThumbnailError) -> [UInt8] {
        let name = FileName.lastComponent(of: executable)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw ThumbnailError(.posterFailed, "\(name): no pipe") }
        let (readEnd, writeEnd) = (pipeEnds[0], pipeEnds[1])
        // Neither end may leak into a process another request spawns meanwhile: one holding
        // the write end would keep this read waiting until it exits.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(writeEnd)
        guard spawned == 0 else {
            close(readEnd)
            throw ThumbnailError(.posterFailed, "\(name) could not be started (error \(spawned))")
        }
        var output: [UInt8] = []
        var failure: String?
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 65536)
        reading: while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                failure = "\(name) took longer than \(timeout)"
                break
            }
            let milliseconds = Int32(
                clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
                    + 1)
            var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break reading }
            guard output.count + count <= outputLimit else {
                failure = "\(name) wrote more than \(outputLimit) bytes"
                break
            }
            output.append(contentsOf: chunk[0..<count])
        }
        close(readEnd)
        if failure != nil { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let failure { throw ThumbnailError(.posterFailed, failure) }
        // Exited normally with status 0.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw ThumbnailError(.posterFailed, "\(name) failed")
        }
        return output
    }
}
