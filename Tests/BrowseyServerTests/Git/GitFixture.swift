import BrowseyAPI
import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// A served folder holding real git repositories the tests make with the `git` executable.
struct GitFixture {
    /// The served root.
    let folder: TemporaryFolder
    /// A folder beside the root, never reachable.
    let outside: TemporaryFolder
    /// Where the trash goes, for revert tests.
    let trash: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder(prefix: "browsey-git")
        outside = try TemporaryFolder(prefix: "browsey-git-outside")
        trash = try TemporaryFolder(prefix: "browsey-git-trash")
    }

    /// Runs git in `directory` (relative to the root, or absolute), with fixed identities and
    /// dates; its standard output. A failure fails the test that called it.
    @discardableResult
    func git(_ arguments: [String], in directory: String = "", date: Int = 1_700_000_000) throws -> String {
        let place = directory.hasPrefix("/") ? directory : folder.path(directory)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("git-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", place, "-c", "protocol.file.allow=always"] + arguments
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
            throw GitFixtureError("git \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A new repository at `directory` with its default branch `main`.
    func makeRepository(_ directory: String = "") throws {
        if !directory.isEmpty && !directory.hasPrefix("/") { try folder.folder(directory) }
        try git(["init", "-q", "-b", "main"], in: directory)
    }

    /// Commits everything in `directory`'s repository; the new commit's hash.
    @discardableResult
    func commitAll(_ message: String, in directory: String = "", date: Int = 1_700_000_000) throws -> String {
        try git(["add", "-A"], in: directory)
        try git(["commit", "-q", "--allow-empty", "-m", message], in: directory, date: date)
        return try git(["rev-parse", "HEAD"], in: directory)
    }

    func configuration(readOnly: Bool = true, withTrash: Bool = true) -> ServerConfiguration {
        var configuration = ServerConfiguration(
            root: folder.path, host: "127.0.0.1", port: 0, readOnly: readOnly,
            trashFolder: withTrash ? trash.path("bin") : nil)
        configuration.indexesSearch = false
        configuration.sendsFilesBySendfile = false
        return configuration
    }

    func withClient(
        _ configuration: ServerConfiguration? = nil,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = try FileServer.application(configuration ?? self.configuration())
        try await app.test(.router, body)
    }
}

struct GitFixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
