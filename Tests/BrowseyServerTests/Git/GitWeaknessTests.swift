import BrowseyAPI
import FileTree
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import BrowseyServer

/// One test per weakness the contract lists in Browsey's git routes.
@Suite("Git: Browsey's weaknesses, avoided")
struct GitWeaknessTests {
    @Test("a repository above the served root is no repository: nothing outside the root is listed")
    func repositoryAboveRoot() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("secret.txt", "outside the served folder\n")
        try fixture.folder.file("docs/readme.md", "# docs\n")
        try fixture.commitAll("base")
        try fixture.folder.file("secret.txt", "changed\n")
        var configuration = fixture.configuration(readOnly: false)
        configuration.root = fixture.folder.path("docs")
        try await fixture.withClient(configuration) { client in
            let status = try await client.ask("/api/git").decode(GitStatusResponse.self)
            #expect(!status.isRepo && status.repoRoot == nil)
            let changes = try await client.ask("/api/git/changes")
            #expect(changes.text == #"{"repoPath":null,"staged":[],"unstaged":[],"untracked":[]}"#)
            let revert = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "secret.txt"))
            #expect(revert.status == .notFound && revert.error == "Not a git repository")
        }
        #expect(try fixture.folder.text("secret.txt") == "changed\n")
    }

    @Test("a .git link or gitdir file leading out of the root is not followed")
    func gitLinkLeadingOut() async throws {
        let fixture = try GitFixture()
        try fixture.git(["init", "-q", "-b", "main"], in: fixture.outside.path)
        try fixture.outside.file("private.txt", "private\n")
        try fixture.git(["add", "-A"], in: fixture.outside.path)
        try fixture.git(["commit", "-q", "-m", "private history"], in: fixture.outside.path)
        try fixture.folder.folder("linked")
        try fixture.folder.symlink("linked/.git", to: fixture.outside.path(".git"))
        try fixture.folder.file("pointer/.git", "gitdir: \(fixture.outside.path(".git"))\n")
        try fixture.folder.symlink("escape", to: fixture.outside.path)
        try await fixture.withClient { client in
            for folder in ["/linked", "/pointer"] {
                let status = try await client.ask("/api/git?path=\(folder)").decode(GitStatusResponse.self)
                #expect(!status.isRepo, "\(folder)")
                let log = try await client.ask("/api/git/log?path=\(folder)").decode(GitLogResponse.self)
                #expect(log.commits.isEmpty)
            }
            // A symlink inside the root to a repository elsewhere is refused as /api/list refuses it.
            let escape = try await client.ask("/api/git?path=/escape")
            #expect(escape.status == .forbidden && escape.error == "Access denied: Invalid path")
        }
    }

    @Test("a repository that borrows its objects or its common folder from outside the root is no repository")
    func borrowedFromOutside() async throws {
        let fixture = try GitFixture()
        try fixture.git(["init", "-q", "-b", "main"], in: fixture.outside.path)
        try fixture.outside.file("private.txt", "private\n")
        let hash = try fixture.commitAll("private history", in: fixture.outside.path)
        // Objects by an alternates file, an objects folder that is a link out, a common folder
        // elsewhere, packs that are links out: each with a branch naming the outside commit.
        try fixture.makeRepository("alternates")
        try fixture.folder.file(
            "alternates/.git/objects/info/alternates", fixture.outside.path(".git/objects") + "\n")
        try fixture.folder.file("alternates/.git/refs/heads/main", hash + "\n")
        try fixture.makeRepository("objects")
        try FileManager.default.removeItem(atPath: fixture.folder.path("objects/.git/objects"))
        _ = try fixture.folder.symlink("objects/.git/objects", to: fixture.outside.path(".git/objects"))
        try fixture.folder.file("objects/.git/refs/heads/main", hash + "\n")
        try fixture.makeRepository("common")
        try fixture.folder.file("common/.git/commondir", fixture.outside.path(".git") + "\n")
        // Packs that are links to the outside repository's.
        try fixture.git(["repack", "-q", "-a", "-d"], in: fixture.outside.path)
        try fixture.makeRepository("packs")
        for name in try FileManager.default.contentsOfDirectory(
            atPath: fixture.outside.path(".git/objects/pack"))
        {
            _ = try fixture.folder.symlink(
                "packs/.git/objects/pack/" + name, to: fixture.outside.path(".git/objects/pack/" + name))
        }
        try fixture.folder.file("packs/.git/refs/heads/main", hash + "\n")
        try fixture.makeRepository("lender")
        try fixture.folder.file("lender/a.txt", "a\n")
        try fixture.commitAll("inside history", in: "lender")
        try fixture.git([
            "clone", "-q", "--shared", fixture.folder.path("lender"), fixture.folder.path("borrowing"),
        ])
        try await fixture.withClient { client in
            // A clone that borrows the objects of a repository inside the root is one.
            let clone = try await client.ask("/api/git/log?path=/borrowing")
            #expect(clone.text.contains("inside history"), "\(clone.text.prefix(200))")
            for folder in ["/alternates", "/objects", "/common", "/packs"] {
                let log = try await client.ask("/api/git/log?path=\(folder)")
                #expect(!log.text.contains("private history"), "\(folder): \(log.text.prefix(200))")
                let status = try await client.ask("/api/git?path=\(folder)").decode(GitStatusResponse.self)
                #expect(!status.isRepo, "\(folder)")
            }
        }
    }

    @Test(
        "loose objects that are links to another repository's outside the root are never read: git runs confined to the root",
        .enabled(if: Confinement.kernelVersion > 0, "the kernel confines programs (Landlock)"))
    func looseObjectLinksLeadingOut() async throws {
        let fixture = try GitFixture()
        try fixture.git(["init", "-q", "-b", "main"], in: fixture.outside.path)
        try fixture.outside.file("private.txt", "private\n")
        let hash = try fixture.commitAll("private history", in: fixture.outside.path)
        // A repository of its own whose every loose object is a link to the outside one's, and
        // whose branch names the outside commit: nothing of it but links to files.
        try fixture.makeRepository("links")
        let objects = fixture.outside.path(".git/objects")
        for fanout in try FileManager.default.contentsOfDirectory(atPath: objects) where fanout.count == 2 {
            try fixture.folder.folder("links/.git/objects/" + fanout)
            for name in try FileManager.default.contentsOfDirectory(atPath: objects + "/" + fanout) {
                _ = try fixture.folder.symlink(
                    "links/.git/objects/\(fanout)/\(name)", to: "\(objects)/\(fanout)/\(name)")
            }
        }
        try fixture.folder.file("links/.git/refs/heads/main", hash + "\n")
        #expect(
            try fixture.git(["log", "--format=%s"], in: "links").contains("private history"),
            "git alone reads it")
        try await fixture.withClient { client in
            let log = try await client.ask("/api/git/log?path=/links")
            #expect(!log.text.contains("private history"), "\(log.text.prefix(200))")
            let commit = try await client.ask("/api/git/commit?path=/links&hash=\(hash)")
            #expect(!commit.text.contains("private history"), "\(commit.text.prefix(200))")
        }
    }

    @Test("a changed file named * or :(glob)** reverts that file alone (literal pathspecs)")
    func pathspecMagic() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        for name in ["*", ":(glob)**", "a.txt", "sub/b.txt"] { try fixture.folder.file(name, "original\n") }
        try fixture.commitAll("base")
        for name in ["*", ":(glob)**", "a.txt", "sub/b.txt"] { try fixture.folder.file(name, "edited\n") }
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            for name in ["*", ":(glob)**"] {
                let answer = try await client.post(
                    "/api/git/revert", GitRevertRequest(path: "/", filePath: name))
                #expect(answer.status == .ok, "\(name): \(answer.text)")
            }
        }
        #expect(try fixture.folder.text("*") == "original\n")
        #expect(try fixture.folder.text(":(glob)**") == "original\n")
        #expect(try fixture.folder.text("a.txt") == "edited\n")
        #expect(try fixture.folder.text("sub/b.txt") == "edited\n")
    }

    @Test("core.fsmonitor and filter drivers in the repository's own config never run")
    func inheritedConfig() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        let marker = fixture.outside.path("ran")
        let script = try fixture.outside.file(
            "hook.sh", "#!/bin/sh\necho ran >> \(marker)\ncat\n", mode: 0o755)
        try fixture.folder.file(".gitattributes", "*.txt filter=evil\n")
        try fixture.folder.file("a.txt", "one\n")
        try fixture.commitAll("base")
        try fixture.git(["config", "core.fsmonitor", script])
        try fixture.git(["config", "filter.evil.clean", script])
        try fixture.git(["config", "filter.evil.smudge", script])
        try fixture.folder.file("a.txt", "two\n")
        // The test can fail: plain git runs them.
        try fixture.git(["status", "--porcelain"])
        #expect(FileManager.default.fileExists(atPath: marker))
        try FileManager.default.removeItem(atPath: marker)
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            let status = try await client.ask("/api/git").decode(GitStatusResponse.self)
            #expect(status.unstaged == 1)
            _ = try await client.ask("/api/git/changes")
            _ = try await client.ask("/api/git/diff?file=a.txt")
            let revert = try await client.post(
                "/api/git/revert", GitRevertRequest(path: "/", filePath: "a.txt"))
            #expect(revert.status == .ok)
        }
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try fixture.folder.text("a.txt") == "one\n")
    }

    @Test("a commit's neighbours come from a bounded walk: off HEAD's history they are null")
    func boundedAdjacency() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("a.txt", "a\n")
        try fixture.commitAll("base")
        try fixture.git(["checkout", "-q", "-b", "side"])
        try fixture.folder.file("a.txt", "side\n")
        let side = try fixture.commitAll("side")
        try fixture.git(["checkout", "-q", "main"])
        try await fixture.withClient { client in
            let commit = try await client.ask("/api/git/commit?hash=\(side)").decode(GitCommitResponse.self)
                .commit
            #expect(commit.previousCommit == nil && commit.nextCommit == nil)
            #expect(commit.message == "side")
        }
        #expect(GitController.adjacencyDepth <= 10_000)
    }

    @Test("a filePath that climbs out or is absolute is refused before git sees it")
    func hostileFilePath() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("a.txt", "a\n")
        try fixture.commitAll("base")
        try await fixture.withClient(fixture.configuration(readOnly: false)) { client in
            for hostile in ["../../etc/passwd", "/etc/passwd", "a/../../x", "", "./a.txt"] {
                let revert = try await client.post(
                    "/api/git/revert", GitRevertRequest(path: "/", filePath: hostile))
                #expect(revert.status == .badRequest, "\(hostile)")
                let diff = try await client.ask("/api/git/diff?file=\(q(hostile))")
                #expect(diff.status == .badRequest, "\(hostile)")
            }
        }
    }
}
