import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Git: status, log, commit and changes")
struct GitReadTests {
    @Test("a folder in no repository answers isRepo false, with the contract's nulls and zeros")
    func notARepository() async throws {
        let fixture = try GitFixture()
        try fixture.folder.file("plain/a.txt", "a")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/git?path=/plain")
            #expect(answer.status == .ok)
            #expect(
                answer.text
                    == #"{"branch":null,"isDirty":false,"isRepo":false,"lastCommit":null,"remoteUrl":null,"repoRoot":null,"staged":0,"unstaged":0,"untracked":0}"#
            )
            let changes = try await client.ask("/api/git/changes?path=/plain")
            #expect(changes.text == #"{"repoPath":null,"staged":[],"unstaged":[],"untracked":[]}"#)
            let log = try await client.ask("/api/git/log?path=/plain")
            #expect(log.text == #"{"commits":[],"hasMore":false}"#)
            let commit = try await client.ask("/api/git/commit?path=/plain&hash=abcdef1")
            #expect(commit.status == .notFound)
            #expect(commit.error == "Not a git repository")
        }
    }

    @Test("status counts staged, unstaged and untracked entries and names the branch and last commit")
    func statusCounts() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository("proj")
        try fixture.folder.file("proj/a.txt", "one\n")
        try fixture.folder.file("proj/b.txt", "two\n")
        try fixture.folder.file("proj/gone.txt", "bye\n")
        try fixture.commitAll("First commit", in: "proj")
        try fixture.folder.file("proj/a.txt", "one changed\n")
        try fixture.folder.file("proj/b.txt", "two staged\n")
        try fixture.git(["add", "b.txt"], in: "proj")
        try fixture.folder.file("proj/b.txt", "two staged then changed\n")
        try FileManager.default.removeItem(atPath: fixture.folder.path("proj/gone.txt"))
        try fixture.folder.file("proj/new/one.txt", "1")
        try fixture.folder.file("proj/new/two.txt", "2")
        try fixture.folder.file("proj/loose.txt", "?")
        try await fixture.withClient { client in
            let status = try await client.ask("/api/git?path=/proj/new").decode(GitStatusResponse.self)
            #expect(status.isRepo)
            #expect(status.branch == "main")
            #expect(status.staged == 1)
            #expect(status.unstaged == 3)
            #expect(status.untracked == 2)
            #expect(status.isDirty)
            #expect(status.lastCommit?.message == "First commit")
            #expect(status.lastCommit?.author == "Ada")
            #expect(status.lastCommit?.date == "2023-11-15T01:13:20+03:00")
            #expect(status.lastCommit?.hash.count == 40)
            #expect(status.repoPath == "/proj")
            #expect(status.remoteUrl == nil)
            // A file's path asks its folder.
            let fromFile = try await client.ask("/api/git?path=/proj/a.txt").decode(GitStatusResponse.self)
            #expect(fromFile.isRepo)
        }
    }

    @Test("an unborn branch has no branch and no last commit; a detached HEAD is \"HEAD\"")
    func unbornAndDetached() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository("empty")
        try fixture.makeRepository("detached")
        try fixture.folder.file("detached/a.txt", "a")
        let first = try fixture.commitAll("one", in: "detached")
        try fixture.commitAll("two", in: "detached")
        try fixture.git(["checkout", "-q", first], in: "detached")
        try await fixture.withClient { client in
            let empty = try await client.ask("/api/git?path=/empty").decode(GitStatusResponse.self)
            #expect(empty.isRepo && empty.branch == nil && empty.lastCommit == nil)
            let detached = try await client.ask("/api/git?path=/detached").decode(GitStatusResponse.self)
            #expect(detached.branch == "HEAD")
            #expect(detached.lastCommit?.hash == first)
        }
    }

    @Test("the remote URL loses the user name and password it carries")
    func remoteWithoutCredentials() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.git(["remote", "add", "origin", "https://ada:s3cret-token@example.com/ada/proj.git"])
        try await fixture.withClient { client in
            let status = try await client.ask("/api/git").decode(GitStatusResponse.self)
            #expect(status.remoteUrl == "https://example.com/ada/proj.git")
        }
    }

    @Test("the log pages newest first, with hasMore, a clamped limit and a lenient skip")
    func logPages() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        for number in 1...5 {
            try fixture.folder.file("n.txt", "\(number)")
            try fixture.commitAll("commit \(number)", date: 1_700_000_000 + number)
        }
        try await fixture.withClient { client in
            let first = try await client.ask("/api/git/log?limit=2").decode(GitLogResponse.self)
            #expect(first.commits.map(\.message) == ["commit 5", "commit 4"])
            #expect(first.hasMore)
            let last = try await client.ask("/api/git/log?limit=2&skip=4").decode(GitLogResponse.self)
            #expect(last.commits.map(\.message) == ["commit 1"])
            #expect(!last.hasMore)
            let leading = try await client.ask("/api/git/log?limit=3abc&skip=-4").decode(GitLogResponse.self)
            #expect(leading.commits.count == 3)
            let clamped = try await client.ask("/api/git/log?limit=0").decode(GitLogResponse.self)
            #expect(clamped.commits.count == 1)
        }
    }

    @Test(
        "changes carry real names (spaces, quotes, non-ASCII), split renames and list untracked folders once")
    func changesNames() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("old name.txt", "content that is long enough to be a rename\n")
        try fixture.folder.file("keep.txt", "keep\n")
        try fixture.commitAll("base")
        try fixture.git(["mv", "old name.txt", "new \"name\".txt"])
        try fixture.folder.file("café.txt", "crème")
        try fixture.folder.file("new file.txt", "new")
        try fixture.folder.file("fresh/inner.txt", "x")
        try fixture.folder.file("keep.txt", "kept\n")
        try await fixture.withClient { client in
            let changes = try await client.ask("/api/git/changes?path=/fresh").decode(GitChangesResponse.self)
            #expect(changes.repoPath == "/")
            #expect(
                changes.staged == [
                    GitChange(
                        path: "new \"name\".txt", indexStatus: "R", workTreeStatus: " ",
                        originalPath: "old name.txt")
                ])
            #expect(changes.unstaged == [GitChange(path: "keep.txt", indexStatus: " ", workTreeStatus: "M")])
            #expect(changes.untracked.map(\.path) == ["café.txt", "fresh/", "new file.txt"])
            #expect(changes.untracked.allSatisfy { $0.indexStatus == "?" && $0.workTreeStatus == "?" })
        }
    }

    @Test(
        "a commit's files and totals parse renames as one file, and its neighbours are the newer and older commits"
    )
    func commitDetail() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("2024 report.md", "line one\nline two\nline three\n")
        let first = try fixture.commitAll("Add the report")
        try fixture.git(["mv", "2024 report.md", "2025 report.md"])
        try fixture.folder.file("notes.txt", "a\nb\n")
        try fixture.folder.file("image.bin", [0, 1, 2, 0, 255])
        try fixture.git(["add", "-A"])
        try fixture.git(
            ["commit", "-q", "-m", "Rename the report\n\nBody line one.\nBody line two.\n"],
            date: 1_700_000_100)
        let second = try fixture.git(["rev-parse", "HEAD"])
        try fixture.folder.file("notes.txt", "a\n")
        let third = try fixture.commitAll("Trim the notes", date: 1_700_000_200)
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/git/commit?hash=\(second.prefix(10))")
            #expect(answer.status == .ok)
            let commit = try answer.decode(GitCommitResponse.self).commit
            #expect(commit.hash == second)
            #expect(commit.message == "Rename the report")
            #expect(commit.body == "Body line one.\nBody line two.")
            #expect(commit.authorEmail == "ada@example.com")
            #expect(commit.committer == "Bob")
            #expect(commit.stats == GitCommitStats(files: 3, additions: 2, deletions: 0))
            #expect(
                Set(commit.files) == [
                    GitCommitFile(
                        path: "2025 report.md", originalPath: "2024 report.md", status: "R",
                        workingTreePath: "/2025 report.md"),
                    GitCommitFile(path: "image.bin", status: "A", workingTreePath: "/image.bin"),
                    GitCommitFile(path: "notes.txt", status: "A", workingTreePath: "/notes.txt"),
                ])
            #expect(commit.previousCommit?.hash == third)
            #expect(commit.nextCommit?.hash == first)
            // The root commit lists its files as added, and has no older neighbour.
            let root = try await client.ask("/api/git/commit?hash=\(first)").decode(GitCommitResponse.self)
                .commit
            #expect(root.files.map(\.status) == ["A"])
            #expect(root.files.first?.workingTreePath == nil)
            #expect(root.nextCommit == nil && root.previousCommit?.hash == second)
            let alone = try await client.ask("/api/git/commit?hash=\(second)&includeAdjacent=0")
            #expect(alone.text.contains(#""previousCommit":null"#))
        }
    }

    @Test("a merge commit's files and totals both follow its first parent")
    func mergeCommit() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("base.txt", "base\n")
        try fixture.commitAll("base")
        try fixture.git(["checkout", "-q", "-b", "side"])
        try fixture.folder.file("side.txt", "one\ntwo\n")
        try fixture.commitAll("side work")
        try fixture.git(["checkout", "-q", "main"])
        try fixture.folder.file("main.txt", "main\n")
        try fixture.commitAll("main work")
        try fixture.git(["merge", "-q", "--no-ff", "--no-edit", "side"])
        let merge = try fixture.git(["rev-parse", "HEAD"])
        try await fixture.withClient { client in
            let commit = try await client.ask("/api/git/commit?hash=\(merge)").decode(GitCommitResponse.self)
                .commit
            #expect(commit.files.map(\.path) == ["side.txt"])
            #expect(commit.stats == GitCommitStats(files: 1, additions: 2, deletions: 0))
        }
    }

    @Test("a submodule is one entry in status and in a commit's files")
    func submodule() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository("library")
        try fixture.folder.file("library/lib.txt", "lib\n")
        try fixture.commitAll("library", in: "library")
        try fixture.makeRepository("app")
        try fixture.folder.file("app/main.txt", "main\n")
        try fixture.commitAll("app", in: "app")
        try fixture.git(["submodule", "add", "-q", fixture.folder.path("library"), "lib"], in: "app")
        let added = try fixture.commitAll("Add the library", in: "app")
        try fixture.folder.file("app/lib/lib.txt", "changed inside\n")
        try await fixture.withClient { client in
            let changes = try await client.ask("/api/git/changes?path=/app").decode(GitChangesResponse.self)
            #expect(changes.unstaged.map(\.path) == ["lib"])
            let commit = try await client.ask("/api/git/commit?path=/app&hash=\(added)")
                .decode(GitCommitResponse.self).commit
            #expect(
                Set(commit.files.map(\.path)) == [".gitmodules", "lib"] || commit.files.map(\.path) == ["lib"]
            )
            // Inside the submodule, its own repository answers.
            let inner = try await client.ask("/api/git?path=/app/lib").decode(GitStatusResponse.self)
            #expect(inner.repoPath == "/app/lib")
        }
    }

    @Test("a hash that is an option, not hex, or names a blob is refused, and nothing is written")
    func hostileHashes() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("a.txt", "a\n")
        try fixture.commitAll("one")
        let blob = try fixture.git(["rev-parse", "HEAD:a.txt"])
        let target = fixture.outside.path("written")
        try await fixture.withClient { client in
            let option = try await client.ask("/api/git/commit?hash=\(q("--output=" + target))")
            #expect(option.status == .badRequest)
            #expect(option.error == "Invalid commit hash")
            let diff = try await client.ask("/api/git/diff?file=a.txt&hash=\(q("--output=" + target))")
            #expect(diff.status == .badRequest)
            let missing = try await client.ask("/api/git/commit")
            #expect(missing.status == .badRequest && missing.error == "hash is required")
            let blobAnswer = try await client.ask("/api/git/commit?hash=\(blob)")
            #expect(blobAnswer.status == .notFound)
            #expect(blobAnswer.error == "Commit not found")
            let unknown = try await client.ask("/api/git/commit?hash=deadbeefdeadbeef")
            #expect(unknown.status == .notFound && unknown.error == "Commit not found")
        }
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("without git on the path, the git routes answer 501 gitMissing and the rest still serves")
    func gitMissing() async throws {
        let fixture = try GitFixture()
        try fixture.folder.file("a.txt", "a")
        var configuration = fixture.configuration()
        configuration.gitSearchPath = fixture.outside.path
        try await fixture.withClient(configuration) { client in
            let answer = try await client.ask("/api/git")
            #expect(answer.status.code == 501)
            #expect(answer.json["code"] as? String == "gitMissing")
            #expect(try await client.ask("/api/list").status == .ok)
        }
    }
}
