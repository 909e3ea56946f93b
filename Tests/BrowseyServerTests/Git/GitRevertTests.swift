import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Git: revert")
struct GitRevertTests {
    /// A repository at the root with `a.txt` committed.
    private func repository() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("a.txt", "committed\n")
        try fixture.folder.file("old.txt", "a file that will be renamed, long enough\n")
        try fixture.commitAll("base")
        return fixture
    }

    @Test("a read-only server refuses a revert, and so does a body that is not JSON")
    func refusals() async throws {
        let fixture = try repository()
        try fixture.folder.file("a.txt", "edited\n")
        try await fixture.withClient { client in
            let answer = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "a.txt"))
            #expect(answer.status == .forbidden && answer.error == "Server is in read-only mode")
        }
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let plain = try await client.post(
                "/api/git/revert", bytes: Array(#"{"path":"/","filePath":"a.txt"}"#.utf8),
                contentType: "text/plain")
            #expect(plain.status == .unsupportedMediaType)
            let empty = try await client.post("/api/git/revert", GitRevertRequest(path: "/", filePath: ""))
            #expect(empty.status == .badRequest && empty.error == "path and filePath are required")
            let clean = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "old.txt"))
            #expect(clean.status == .notFound && clean.error == "File has no git changes")
            let get = try await client.ask("/api/git/revert")
            #expect(get.status == .notFound || get.status == .methodNotAllowed)
        }
        #expect(try fixture.folder.text("a.txt") == "edited\n")
    }

    @Test("an untracked file goes to the trash, and /api/restore brings it back")
    func untrackedToTrash() async throws {
        let fixture = try repository()
        try fixture.folder.file("new file.txt", "precious\n")
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let answer = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "new file.txt"))
            #expect(answer.status == .ok)
            let reverted = try answer.decode(GitRevertResponse.self)
            #expect(reverted.ok && reverted.trashIds.count == 1)
            #expect(!fixture.folder.exists("new file.txt"))
            let restored = try await client.post("/api/restore", RestoreRequest(id: reverted.trashIds[0]))
            #expect(restored.status == .ok)
        }
        #expect(try fixture.folder.text("new file.txt") == "precious\n")
    }

    @Test("a modified file gets HEAD's version back, and its edit waits in the trash")
    func modifiedToHead() async throws {
        let fixture = try repository()
        try fixture.folder.file("a.txt", "edited\n")
        try fixture.git(["add", "a.txt"])
        try fixture.folder.file("a.txt", "edited again\n")
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let answer = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "a.txt"))
            #expect(answer.status == .ok)
            let reverted = try answer.decode(GitRevertResponse.self)
            #expect(reverted.trashIds.count == 1)
            let changes = try await client.ask("/api/git/changes").decode(GitChangesResponse.self)
            #expect(changes.staged.isEmpty && changes.unstaged.isEmpty)
            let trash = try await client.ask("/api/trash").decode(TrashResponse.self)
            #expect(trash.items.map(\.originalPath) == ["/a.txt"])
        }
        #expect(try fixture.folder.text("a.txt") == "committed\n")
        let kept = try FileManager.default.subpathsOfDirectory(atPath: fixture.trash.path("bin"))
            .filter { $0.hasSuffix("/a.txt") }
        #expect(kept.count == 1)
        #expect(
            try String(contentsOfFile: fixture.trash.path("bin/" + kept[0]), encoding: .utf8)
                == "edited again\n")
    }

    @Test("a newly added file is unstaged and moved to the trash; a rename is undone whole")
    func addedAndRenamed() async throws {
        let fixture = try repository()
        try fixture.folder.file("added.txt", "added\n")
        try fixture.git(["add", "added.txt"])
        try fixture.git(["mv", "old.txt", "new.txt"])
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let added = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "added.txt"))
            #expect(added.status == .ok)
            let renamed = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "new.txt"))
            #expect(renamed.status == .ok, "\(renamed.text)")
            let changes = try await client.ask("/api/git/changes").decode(GitChangesResponse.self)
            #expect(changes.staged.isEmpty && changes.unstaged.isEmpty && changes.untracked.isEmpty)
        }
        #expect(!fixture.folder.exists("added.txt"))
        #expect(!fixture.folder.exists("new.txt"))
        #expect(try fixture.folder.text("old.txt") == "a file that will be renamed, long enough\n")
    }

    @Test("an untracked folder holding a repository of its own is refused, and nothing moves")
    func nestedRepository() async throws {
        let fixture = try repository()
        try fixture.folder.file("vendor/inner/x.txt", "x\n")
        try fixture.makeRepository("vendor/inner")
        try fixture.folder.file("vendor/other.txt", "o\n")
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let changes = try await client.ask("/api/git/changes").decode(GitChangesResponse.self)
            #expect(changes.untracked.map(\.path) == ["vendor/"])
            let answer = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "vendor/"))
            #expect(answer.status == .conflict)
            #expect(answer.json["code"] as? String == "nestedRepository")
        }
        #expect(fixture.folder.exists("vendor/inner/.git"))
        #expect(fixture.folder.exists("vendor/other.txt"))
    }
}
