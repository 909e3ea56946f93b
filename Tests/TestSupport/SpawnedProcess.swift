import CTestSupport
public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program a test starts, with `posix_spawn`, and what it prints.
///
/// Not Foundation's `Process`: in the parallel suite, with some 1,400 descriptors open in the test
/// process, `Process.run()` crashed in a `memcpy` past the end of a mapping (seen in a local run
/// and, by every sign, in a CI run that never ended). This type asks the C library for nothing
/// but `posix_spawn`, pipes made close-on-exec (a server another test starts meanwhile never
/// inherits one, so reading to the end never waits for it) and `waitpid` for this one child.
///
/// ```swift
/// let result = try SpawnedProcess.run("zbarimg", ["--raw", "-q", image])
/// #expect(result.status == 0)
/// ```
public final class SpawnedProcess: @unchecked Sendable {
    /// Where its standard output and error go.
    public enum Output: Sendable {
        /// Both into one pipe, read as it comes: ``output``.
        case collected
        /// Standard output alone into the pipe; standard error to `/dev/null`.
        case standardOutput
        /// `/dev/null`.
        case discarded
    }

    /// The child's process ID.
    public let processIdentifier: pid_t

    // Everything below is read and written under the lock.
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var outputEnded = false
    private var waitStatus: Int32?

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`. With an
    /// `environment`, exactly that environment; without, this process's own. Standard input is
    /// `input`, then its end (`/dev/null` when nil).
    public init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: [UInt8]? = nil, output: Output = .collected
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        var inputPipe: [Int32] = [-1, -1]
        if input != nil {
            guard cts_pipe_cloexec(&inputPipe) == 0 else { throw TestSupportError("pipe: errno \(errno)") }
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var outputPipe: [Int32] = [-1, -1]
        switch output {
        case .collected, .standardOutput:
            guard cts_pipe_cloexec(&outputPipe) == 0 else {
                for end in inputPipe where end >= 0 { close(end) }
                throw TestSupportError("pipe: errno \(errno)")
            }
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
            if case .collected = output {
                posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 2)
            } else {
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            }
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for variable in envp ?? [] { free(variable) } }

        // A child starts with no signal blocked and every signal at its default, whatever the
        // test runner's thread blocks or ignores (SIGPIPE is ignored in this process).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let spawn = executable.contains("/") ? posix_spawn : posix_spawnp
        let spawned =
            if let envp {
                spawn(&pid, executable, &actions, &attributes, argv, envp)
            } else {
                spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
        // The child has its ends; the parent keeps only its own.
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        guard spawned == 0 else {
            if inputPipe[1] >= 0 { close(inputPipe[1]) }
            if outputPipe[0] >= 0 { close(outputPipe[0]) }
            throw TestSupportError("could not start \(executable): \(String(cString: strerror(spawned)))")
        }
        processIdentifier = pid

        if let input {
            let writeEnd = inputPipe[1]
            Thread.detachNewThread {
                input.withUnsafeBytes { buffer in
                    guard let start = buffer.baseAddress else { return }
                    var offset = 0
                    while offset < buffer.count {
                        let written = write(writeEnd, start + offset, buffer.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { break }
                        offset += written
                    }
                }
                close(writeEnd)
            }
        }
        if outputPipe[0] >= 0 {
            let readEnd = outputPipe[0]
            Thread.detachNewThread { [self] in
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { break }
                    lock.withLock { bytes += chunk[0..<count] }
                }
                close(readEnd)
                lock.withLock { outputEnded = true }
            }
        } else {
            outputEnded = true
        }
    }

    /// What it printed so far (standard output and error together).
    public var output: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Whether it still runs (it is reaped, and its status kept, the first time it is seen ended).
    public var isRunning: Bool {
        lock.withLock {
            guard waitStatus == nil else { return false }
            var status: Int32 = 0
            let reaped = waitpid(processIdentifier, &status, WNOHANG)
            if reaped == processIdentifier { waitStatus = status }
            return reaped == 0
        }
    }

    /// Its exit status, or the number of the signal that ended it; -1 while it runs.
    public var terminationStatus: Int32 {
        guard !isRunning, let status = lock.withLock({ waitStatus }) else { return -1 }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// Blocks until it ends and its output has ended too (at most two seconds after it ends:
    /// a grandchild may hold the pipe open).
    public func waitUntilExit() {
        while isRunning { usleep(5_000) }
        for _ in 0..<400 where !lock.withLock({ outputEnded }) { usleep(5_000) }
    }

    /// Waits (at most `timeout`) until it ends, without blocking a thread; its exit status, or
    /// nil if it still runs.
    public func wait(timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !isRunning else { return nil }
        for _ in 0..<100 where !lock.withLock({ outputEnded }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return terminationStatus
    }

    /// Sends `signal` if it still runs.
    public func signal(_ signal: Int32) { if isRunning { kill(processIdentifier, signal) } }

    /// Ends it at once (SIGKILL).
    public func terminate() { signal(SIGKILL) }

    /// Runs `executable` to its end; its exit status and what it printed (see `output`).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        input: [UInt8]? = nil, output: Output = .collected
    ) throws -> (status: Int32, output: String) {
        let process = try SpawnedProcess(
            executable, arguments, environment: environment, input: input, output: output)
        process.waitUntilExit()
        return (process.terminationStatus, process.output)
    }

    deinit {
        // Never leave a zombie or a stray child behind a test.
        if isRunning {
            kill(processIdentifier, SIGKILL)
            var status: Int32 = 0
            waitpid(processIdentifier, &status, 0)
        }
    }
}
