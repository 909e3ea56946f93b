import Foundation
import TestSupport
import Testing

@testable import BrowseyServer

@Suite("Git: how git is run")
struct GitRunnerTests {
    /// A stand-in `git` in a folder of its own, running `body` as a shell script.
    private func fakeGit(_ body: String) throws -> (TemporaryFolder, GitRunner) {
        let folder = try TemporaryFolder(prefix: "browsey-fake-git")
        try folder.file("git", "#!/bin/sh\n" + body + "\n", mode: 0o755)
        return (folder, GitRunner.find(path: folder.path))
    }

    @Test("a command past its time limit is killed and said to have timed out")
    func timeout() throws {
        let (folder, found) = try fakeGit("exec sleep 30")
        var runner = found
        runner.timeout = .milliseconds(300)
        let started = ContinuousClock.now
        let output = runner.run(["status"], in: folder.path)
        #expect(output.ending == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("output past the cap is cut at the cap and said to be too large")
    func outputCap() throws {
        let (folder, found) = try fakeGit("exec yes line")
        var runner = found
        runner.outputLimit = 100_000
        let output = runner.run(["log"], in: folder.path)
        #expect(output.ending == .tooLarge)
        #expect(output.bytes.count == 100_000)
    }

    @Test("git gets argv as given, stdin /dev/null, and a fixed environment with no pager or prompts")
    func environmentAndArguments() throws {
        let (folder, found) = try fakeGit(#"printf '%s\n' "$@"; env | sort; cat"#)
        var runner = found
        runner.ceiling = "/srv"
        let output = runner.run(["log", "--format=%s", "; rm -rf /"], in: folder.path)
        #expect(output.succeeded)
        let lines = output.text.split(separator: "\n").map(String.init)
        #expect(
            lines.starts(with: [
                "-C", folder.path, "--no-pager", "--no-optional-locks", "--literal-pathspecs",
            ]))
        #expect(lines.contains("; rm -rf /"))
        #expect(lines.contains("core.fsmonitor=false"))
        #expect(lines.contains("GIT_CONFIG_NOSYSTEM=1"))
        #expect(lines.contains("GIT_TERMINAL_PROMPT=0"))
        #expect(lines.contains("LC_ALL=C"))
        #expect(lines.contains("HOME=/nonexistent"))
        #expect(lines.contains("GIT_CEILING_DIRECTORIES=/srv"))
        #expect(!lines.contains { $0.hasPrefix("USER=") || $0.hasPrefix("SSH_AUTH_SOCK=") })
    }

    @Test("no git found: the runner has no executable and runs nothing")
    func missing() throws {
        let folder = try TemporaryFolder(prefix: "browsey-no-git")
        let runner = GitRunner.find(path: folder.path)
        #expect(runner.executable == nil)
        #expect(runner.run(["status"], in: folder.path).ending == .notStarted)
    }

    @Test("a remote URL keeps its host and path but not its user name or password")
    func remoteURL() {
        #expect(GitController.withoutUserInfo("https://u:p@host/x.git") == "https://host/x.git")
        #expect(GitController.withoutUserInfo("https://token@host:8443/x") == "https://host:8443/x")
        #expect(GitController.withoutUserInfo("git@github.com:a/b.git") == "git@github.com:a/b.git")
        #expect(GitController.withoutUserInfo("https://host/a@b") == "https://host/a@b")
    }
}
