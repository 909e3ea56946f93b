import BrowseyAPI
import BrowseyServer
import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@Suite("Git: diffs")
struct GitDiffTests {
    @Test("a commit's file diff comes as hunks of numbered context, added and removed lines")
    func commitDiff() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("code.swift", "let a = 1\nlet b = 2\nlet c = 3\n")
        try fixture.commitAll("one")
        try fixture.folder.file("code.swift", "let a = 1\nlet b = 20\nlet c = 3\nlet d = 4")
        let second = try fixture.commitAll("two")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/git/diff?file=code.swift&hash=\(second)")
            #expect(answer.status == .ok)
            let diff = try answer.decode(GitDiffResponse.self)
            #expect(!diff.binary && !diff.truncated)
            #expect(diff.hunks.count == 1)
            let hunk = try #require(diff.hunks.first)
            #expect((hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines) == (1, 3, 1, 4))
            #expect(
                hunk.lines == [
                    GitDiffLine(kind: .context, oldLine: 1, newLine: 1, text: "let a = 1"),
                    GitDiffLine(kind: .removed, oldLine: 2, newLine: nil, text: "let b = 2"),
                    GitDiffLine(kind: .added, oldLine: nil, newLine: 2, text: "let b = 20"),
                    GitDiffLine(kind: .context, oldLine: 3, newLine: 3, text: "let c = 3"),
                    GitDiffLine(kind: .added, oldLine: nil, newLine: 4, text: "let d = 4", noNewline: true),
                ])
        }
    }

    @Test("working-tree diffs: unstaged, staged with staged=1, and an untracked file as all added")
    func workingTree() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("a.txt", "base\n")
        try fixture.commitAll("one")
        try fixture.folder.file("a.txt", "staged\n")
        try fixture.git(["add", "a.txt"])
        try fixture.folder.file("a.txt", "worktree\n")
        try fixture.folder.file("new file.txt", "fresh\nlines\n")
        try await fixture.withClient { client in
            let unstaged = try await client.ask("/api/git/diff?file=a.txt").decode(GitDiffResponse.self)
            #expect(unstaged.hunks.first?.lines.map(\.text) == ["staged", "worktree"])
            let staged = try await client.ask("/api/git/diff?file=a.txt&staged=1").decode(
                GitDiffResponse.self)
            #expect(staged.hunks.first?.lines.map(\.text) == ["base", "staged"])
            let untracked = try await client.ask("/api/git/diff?file=\(q("new file.txt"))")
                .decode(GitDiffResponse.self)
            #expect(untracked.hunks.first?.lines.map(\.kind) == [.added, .added])
            #expect(untracked.hunks.first?.lines.map(\.newLine) == [1, 2])
        }
    }

    @Test("a binary file is said to be binary, with no hunks")
    func binary() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("image.bin", [0, 1, 2, 3, 0, 255])
        let first = try fixture.commitAll("one")
        try await fixture.withClient { client in
            let diff = try await client.ask("/api/git/diff?file=image.bin&hash=\(first)").decode(
                GitDiffResponse.self)
            #expect(diff.binary && diff.hunks.isEmpty)
        }
    }

    @Test("a diff past the line limit is cut and marked truncated")
    func truncated() async throws {
        let fixture = try GitFixture()
        try fixture.makeRepository()
        try fixture.folder.file("long.txt", (1...30_000).map { "line \($0)" }.joined(separator: "\n") + "\n")
        let first = try fixture.commitAll("one")
        try await fixture.withClient { client in
            let diff = try await client.ask("/api/git/diff?file=long.txt&hash=\(first)").decode(
                GitDiffResponse.self)
            #expect(diff.truncated)
            let lines = diff.hunks.flatMap(\.lines)
            #expect(lines.count == 10_000)
            #expect(lines.last?.text == "line 10000")
        }
    }
}
