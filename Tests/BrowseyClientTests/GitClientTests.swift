import BrowseyAPI
import BrowseyClient
import Foundation
import TestSupport
import Testing

@Suite("The client's git calls against a live server")
struct GitClientTests {
    @Test("status, log, changes, a commit, a diff and a revert come back as typed values")
    func gitCalls() async throws {
        let folder = try TemporaryFolder()
        try folder.folder("proj")
        let project = folder.path("proj")
        try GitCommand.run(["init", "-q", "-b", "main"], in: project)
        try folder.file("proj/notes.md", "# Notes\nfirst\n")
        try GitCommand.run(["add", "-A"], in: project)
        try GitCommand.run(["commit", "-q", "-m", "First notes"], in: project)
        try folder.file("proj/notes.md", "# Notes\nsecond\n")
        try GitCommand.run(["commit", "-q", "-am", "Second notes"], in: project, date: 1_700_000_100)
        try folder.file("proj/notes.md", "# Notes\nthird\n")
        try folder.file("proj/new idea.txt", "idea\n")
        try await LiveServer.with(folder, readOnly: false) { _, client in
            let status = try await client.gitStatus(at: "/proj")
            #expect(status.isRepo && status.branch == "main" && status.unstaged == 1 && status.untracked == 1)
            let log = try await client.gitLog(at: "/proj", limit: 1)
            #expect(log.commits.map(\.message) == ["Second notes"] && log.hasMore)
            let commit = try await client.gitCommit(log.commits[0].shortHash, at: "/proj")
            #expect(commit.files.map(\.path) == ["notes.md"] && commit.nextCommit?.message == "First notes")
            let diff = try await client.gitDiff("notes.md", at: "/proj", hash: commit.hash)
            #expect(diff.hunks.flatMap(\.lines).filter { $0.kind == .added }.map(\.text) == ["second"])
            let changes = try await client.gitChanges(at: "/proj")
            #expect(changes.untracked.map(\.path) == ["new idea.txt"])
            _ = try await client.gitRevert("notes.md", in: "/proj")
            do {
                _ = try await client.gitCommit("not-a-hash", at: "/proj")
                Issue.record("an invalid hash was accepted")
            } catch {
                #expect((error as? BrowseyClientError)?.message.contains("Invalid commit hash") == true)
            }
        }
        #expect(try folder.text("proj/notes.md") == "# Notes\nsecond\n")
    }
}
