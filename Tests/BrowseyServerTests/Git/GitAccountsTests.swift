import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Git: with accounts, each user sees only what they may read")
struct GitAccountsTests {
    @Test("changes and counts leave out what the user may not read; revert needs write on the file")
    func filteredByRights() async throws {
        let fixture = try PeopleFixture.make()
        let root = fixture.folder.path
        try GitCommand.run(["init", "-q", "-b", "main"], in: root)
        try GitCommand.run(["add", "-A"], in: root)
        try GitCommand.run(["commit", "-q", "-m", "base"], in: root)
        try fixture.folder.file("Team/Private/salary.txt", "a raise")
        try fixture.folder.file("Public/readme.txt", "public, edited")
        try fixture.folder.file("Team/plan.txt", "plan, edited")
        try await fixture.withClient { client in
            let carol = try await client.signIn("carol")
            let changes = try await client.ask("/api/git/changes", headers: carol).decode(
                GitChangesResponse.self)
            #expect(changes.unstaged.map(\.path) == ["Public/readme.txt", "Team/plan.txt"])
            let status = try await client.ask("/api/git", headers: carol).decode(GitStatusResponse.self)
            #expect(status.unstaged == 2)
            let hidden = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "Team/Private/salary.txt"),
                headers: carol)
            #expect(hidden.status == .notFound && hidden.error == "File has no git changes")
            let readOnly = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "Team/plan.txt"), headers: carol)
            #expect(readOnly.status == .forbidden)
            let bob = try await client.signIn("bob")
            let all = try await client.ask("/api/git/changes", headers: bob).decode(GitChangesResponse.self)
            #expect(
                all.unstaged.map(\.path) == ["Public/readme.txt", "Team/Private/salary.txt", "Team/plan.txt"])
            let reverted = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/Team", filePath: "Team/plan.txt"), headers: bob)
            #expect(reverted.status == .ok, "\(reverted.text)")
            // Nobody signed in may not read the repository's root: no repository for them.
            let anonymous = try await client.ask("/api/git?path=/Public").decode(GitStatusResponse.self)
            #expect(!anonymous.isRepo)
        }
        #expect(try fixture.folder.text("Team/plan.txt") == "plan")
        #expect(try fixture.folder.text("Team/Private/salary.txt") == "a raise")
    }
}
