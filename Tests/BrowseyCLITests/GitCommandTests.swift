import Foundation
import TestSupport
import Testing

@Suite("browsey git against a real server", .serialized)
struct GitCommandTests {
    /// Runs the real executable; its exit status and what it printed.
    private func browsey(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        let command = try ExternalCommand(RunningBrowsey.executable.path, arguments)
        let status = await command.wait(timeout: .seconds(60))
        return (status, command.output)
    }

    @Test("git status, log and show print a served repository's state, history and a commit; errors say so")
    func gitCommands() async throws {
        let served = try TemporaryFolder()
        try served.folder("proj")
        let project = served.path("proj")
        try GitCommand.run(["init", "-q", "-b", "main"], in: project)
        try served.file("proj/café notes.md", "one\n")
        try GitCommand.run(["add", "-A"], in: project)
        try GitCommand.run(["commit", "-q", "-m", "Start the notes"], in: project)
        let hash = try GitCommand.run(["rev-parse", "--short", "HEAD"], in: project)
        try served.file("proj/café notes.md", "two\n")
        try served.file("plain/a.txt", "a")
        let server = try ExternalCommand(
            RunningBrowsey.executable.path,
            ["serve", served.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-index", "--no-bonjour"])
        defer { server.terminate() }
        let banner = await server.waitFor("Mode:")
        let local = try #require(banner.components(separatedBy: "\n").first { $0.contains("Local:") })
        let base = try #require(local.split(separator: " ").last.map(String.init)).trimmingCharacters(
            in: CharacterSet(charactersIn: "/"))

        let status = try await browsey(["git", "status", "\(base)/proj"])
        #expect(status.status == 0, "\(status.output)")
        #expect(
            status.output.contains("On branch main") && status.output.contains("M café notes.md"),
            "\(status.output)")
        let log = try await browsey(["git", "log", "\(base)/proj"])
        #expect(
            log.status == 0 && log.output.contains("\(hash)") && log.output.contains("Ada: Start the notes"))
        let show = try await browsey(["git", "show", "\(base)/proj", hash, "--patch"])
        #expect(
            show.status == 0 && show.output.contains("A café notes.md") && show.output.contains("+one"),
            "\(show.output)")
        let unknown = try await browsey(["git", "show", "\(base)/proj", "deadbeef"])
        #expect(
            unknown.status == 1 && unknown.output.contains("Error: Commit not found"), "\(unknown.output)")
        let plain = try await browsey(["git", "status", "\(base)/plain"])
        #expect(
            plain.status == 1 && plain.output.contains("Error:")
                && plain.output.contains("not in a git repository"))
        let usage = try await browsey(["git", "show", "\(base)/proj", "--output=/tmp/x"])
        #expect(usage.status == 2, "\(usage.output)")
    }
}
