import Foundation

/// Another program a test talks to (avahi-browse, avahi-publish, …): run to the end, or kept
/// running in the background until stopped. Output (stdout and stderr together) is collected.
public final class ExternalCommand: @unchecked Sendable {
    // Process and Pipe are Foundation classes without Sendable; every access to the collected
    // text goes through the lock.
    private let process = Process()
    private let pipe = Pipe()
    private let lock = NSLock()
    private var collected = Data()

    /// Starts `executable` (a name looked up in PATH, or a path) with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                // The end of the output: stop watching it now. An ended pipe is always readable
                // (the handler would spin), and the pipe is closed when this object goes away:
                // a descriptor closed while a Dispatch source still watches it can leave a stale
                // registration that crashes Dispatch's event loop (seen once in the parallel run).
                handle.readabilityHandler = nil
                return
            }
            guard let self else { return }
            self.lock.lock()
            self.collected.append(data)
            self.lock.unlock()
        }
        try process.run()
    }

    /// What it printed so far.
    public var output: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// Waits (at most `timeout`) until it ends; its exit status, or nil if it still runs.
    @discardableResult
    public func wait(timeout: Duration = .seconds(20)) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard !process.isRunning else { return nil }
        // The last bytes may still be in the pipe.
        try? await Task.sleep(for: .milliseconds(30))
        return process.terminationStatus
    }

    /// Waits (at most `timeout`) until the output contains `marker`; the output.
    public func waitFor(_ marker: String, timeout: Duration = .seconds(20)) async -> String {
        let deadline = ContinuousClock.now + timeout
        while !output.contains(marker) && process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        return output
    }

    /// Ends it at once (SIGKILL: a child of the test runner may have SIGTERM blocked, and
    /// what these tests check is how the rest of the system sees a program vanish).
    public func terminate() { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// Ends it and waits until it is gone.
    public func stop() async {
        terminate()
        await wait(timeout: .seconds(5))
    }

    /// Runs to the end (at most `timeout`); its exit status (nil: still running, then stopped)
    /// and output.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        timeout: Duration = .seconds(20)
    ) async throws -> (status: Int32?, output: String) {
        let command = try ExternalCommand(executable, arguments, environment: environment)
        let status = await command.wait(timeout: timeout)
        if status == nil { await command.stop() }
        return (status, command.output)
    }

    deinit { terminate() }
}
