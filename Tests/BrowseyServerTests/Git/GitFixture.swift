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
        try GitCommand.run(
            arguments, in: directory.hasPrefix("/") ? directory : folder.path(directory), date: date)
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
