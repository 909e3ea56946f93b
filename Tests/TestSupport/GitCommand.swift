import Foundation

/// The `git` executable, run to make the real repositories git tests serve: fixed identities
/// (author Ada, committer Bob) and dates, no system or user configuration.
public enum GitCommand {
    /// Runs `git -C directory arguments`; its standard output, trimmed. A failure throws.
    @discardableResult
    public static func run(
        _ arguments: [String], in directory: String, date: Int = 1_700_000_000
    ) throws -> String {
        let result = try SpawnedProcess.run(
            "/usr/bin/git", ["-C", directory, "-c", "protocol.file.allow=always"] + arguments,
            environment: [
                "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Bob",
                "GIT_COMMITTER_EMAIL": "bob@example.com", "GIT_AUTHOR_DATE": "\(date) +0300",
                "GIT_COMMITTER_DATE": "\(date) +0300", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin",
            ],
            output: .standardOutput)
        guard result.status == 0 else {
            throw TestSupportError("git \(arguments.joined(separator: " ")) failed: \(result.output)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
