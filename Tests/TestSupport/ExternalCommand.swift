import Foundation

/// Another program a test talks to (avahi-browse, avahi-publish, …): run to the end, or kept
/// running in the background until stopped. Output (stdout and stderr together) is collected.
public final class ExternalCommand: Sendable {
    private let process: SpawnedProcess

    /// Starts `executable` (a name looked up in PATH, or a path) with `arguments`, in this
    /// process's environment with `environment` added.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process = try SpawnedProcess(
            executable, arguments,
            environment: environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } })
    }

    /// What it printed so far.
    public var output: String { process.output }

    /// Whether it still runs.
    public var isRunning: Bool { process.isRunning }

    /// Waits (at most `timeout`) until it ends; its exit status, or nil if it still runs.
    @discardableResult
    public func wait(timeout: Duration = .seconds(20)) async -> Int32? {
        await process.wait(timeout: timeout)
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
    public func terminate() { process.terminate() }

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
