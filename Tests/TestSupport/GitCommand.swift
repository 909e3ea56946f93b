import Foundation

/// The `git` executable, run to make the real repositories git tests serve: fixed identities
/// (author Ada, committer Bob) and dates, no system or user configuration.
public enum GitCommand {
    /// One git at a time in this process: Foundation's `Process.run()` on Linux crashed (a bad
    /// copy inside it) when the parallel suite's git fixtures started processes at once.
    private static let oneAtATime = NSLock()

    /// Runs `git -C directory arguments`; its standard output, trimmed. A failure throws.
    @discardableResult
    public static func run(
        _ arguments: [String], in directory: String, date: Int = 1_700_000_000
    ) throws -> String {
        oneAtATime.lock()
        defer { oneAtATime.unlock() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("git-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        // Output to a file, not a pipe: a server another test starts meanwhile must not inherit it.
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", directory, "-c", "protocol.file.allow=always"] + arguments
        process.environment = [
            "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Bob",
            "GIT_COMMITTER_EMAIL": "bob@example.com", "GIT_AUTHOR_DATE": "\(date) +0300",
            "GIT_COMMITTER_DATE": "\(date) +0300", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin",
        ]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw TestSupportError("git \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
