import Foundation
import TestSupport
import Testing

@Suite("browsey grep against a real server", .serialized)
struct GrepCommandTests {
    /// Runs the real executable; its exit status and what it printed.
    private func browsey(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        let command = try ExternalCommand(RunningBrowsey.executable.path, arguments)
        let status = await command.wait(timeout: .seconds(60))
        return (status, command.output)
    }

    /// Serves `served` with its content index in `index`; the server and its base URL.
    private func serve(
        _ served: TemporaryFolder, index: TemporaryFolder
    ) async throws -> (server: ExternalCommand, base: String) {
        let server = try ExternalCommand(
            RunningBrowsey.executable.path,
            [
                "serve", served.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
                "--index-dir", index.path,
            ])
        let banner = await server.waitFor("Mode:")
        let local = try #require(banner.components(separatedBy: "\n").first { $0.contains("Local:") })
        let base = try #require(local.split(separator: " ").last.map(String.init)).trimmingCharacters(
            in: CharacterSet(charactersIn: "/"))
        return (server, base)
    }

    /// `arguments` run until the answer is whole: the content index is built in the background
    /// after the names (while it builds, grep prints what it has and says there may be more).
    private func grepOnceIndexed(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
        var found = try await browsey(arguments)
        for _ in 0..<50 where found.status != 0 || found.output.contains("there may be more") {
            try await Task.sleep(for: .milliseconds(200))
            found = try await browsey(arguments)
        }
        return found
    }

    @Test(
        "grep prints path:line: text for each matching line, literally unless -e, with case unless -i; no match exits 1"
    )
    func grepPrintsMatchingLines() async throws {
        let served = try TemporaryFolder()
        let index = try TemporaryFolder(prefix: "browsey-index")
        try served.file("docs/plan.md", "# Plan\n\nThe quarterly report is due Friday.\nNothing else.\n")
        try served.file("docs/dots.txt", "a.b on this line\naxb on this one\n")
        // One line of 20,000 bytes, as minified code is (regular expressions were once skipped on
        // lines over 16 KiB, and grep makes every pattern one).
        try served.file("docs/minified.js", String(repeating: "var x=1;", count: 2_500) + "needle;\n")
        try served.file("other/elsewhere.txt", "the quarterly report, outside docs\n")
        try served.file("docs/marks.txt", "a (\u{301}x here\n")
        let (server, base) = try await serve(served, index: index)
        defer { server.terminate() }

        let found = try await grepOnceIndexed(["grep", "\(base)/docs", "quarterly report"])
        #expect(found.status == 0, "\(found.output)")
        #expect(found.output == "/docs/plan.md:3: The quarterly report is due Friday.\n", "\(found.output)")

        let cased = try await browsey(["grep", "\(base)/docs", "QUARTERLY"])
        #expect(cased.status == 1 && cased.output.isEmpty, "\(cased.output)")
        let ignoringCase = try await browsey(["grep", "\(base)/docs", "QUARTERLY", "-i"])
        #expect(ignoringCase.status == 0 && ignoringCase.output.contains("/docs/plan.md:3:"))

        let literal = try await browsey(["grep", "\(base)/docs", "a.b"])
        #expect(literal.output == "/docs/dots.txt:1: a.b on this line\n", "a dot is a dot without -e")
        let pattern = try await browsey(["grep", "\(base)/docs", "a.b on", "-e"])
        #expect(pattern.status == 0 && pattern.output.contains("/docs/dots.txt:1:"))
        let alternatives = try await browsey(["grep", "\(base)/docs", "due (Monday|Friday)", "-e"])
        #expect(alternatives.output == "/docs/plan.md:3: The quarterly report is due Friday.\n")

        let nothing = try await browsey(["grep", "\(base)/docs", "zebracorn"])
        #expect(nothing.status == 1 && nothing.output.isEmpty, "\(nothing.output)")
        let missing = try await browsey(["grep", "\(base)/nowhere", "report"])
        #expect(
            missing.status == 2 && missing.output.contains("Error:"),
            "an error is 2, as grep's: \(missing.output)")
        let backReference = try await browsey(["grep", "\(base)/docs", #"(due)\1"#, "-e"])
        #expect(
            backReference.status == 2 && backReference.output.contains("back-references"),
            "\(backReference.output)")
        let long = try await browsey(["grep", "\(base)/docs", "needle"])
        #expect(
            long.status == 0 && long.output.hasPrefix("/docs/minified.js:1: "), "a 20 KB line is read too")
        let marked = try await browsey(["grep", "\(base)/docs", "(\u{301}x"])
        #expect(
            marked.status == 0 && marked.output.contains("/docs/marks.txt:1:"),
            "a ( before a combining mark is escaped too: \(marked.output)")
        let unreachable = try await browsey(["grep", "http://127.0.0.1:9/docs", "report"])
        #expect(
            unreachable.status == 2 && unreachable.output.contains("Error:"),
            "a server not reached is an error, 2: \(unreachable.output)")
        let usage = try await browsey(["grep", "\(base)/docs", "report", "--limit", "0"])
        #expect(usage.status == 2, "\(usage.output)")
    }

    @Test(
        "what a file says is printed as text, never as terminal controls, and grep says when more files match than it shows"
    )
    func grepShowsControlsAndSaysWhenMoreMatch() async throws {
        let served = try TemporaryFolder()
        let index = try TemporaryFolder(prefix: "browsey-index")
        // A line that would set the terminal's title and then clear the screen, and a name that
        // reads backwards from its override (U+202E) on.
        try served.file("notes/title.txt", "budget \u{1B}]0;owned\u{07}\u{1B}[2J done\n")
        try served.file("notes/invoice\u{202E}fdp.txt", "budget for march\n")
        try served.file("notes/third.txt", "budget again\n")
        let (server, base) = try await serve(served, index: index)
        defer { server.terminate() }

        let found = try await grepOnceIndexed(["grep", "\(base)/notes", "budget"])
        #expect(found.status == 0, "\(found.output)")
        #expect(
            !found.output.unicodeScalars.contains {
                $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E
            })
        #expect(
            found.output.contains("/notes/title.txt:1: budget ^[]0;owned^G^[[2J done\n"), "\(found.output)")
        #expect(
            found.output.contains("/notes/invoice<U+202E>fdp.txt:1: budget for march\n"), "\(found.output)")
        #expect(!found.output.contains("more files match"), "three files match, and the limit is 50")

        let two = try await browsey(["grep", "\(base)/notes", "budget", "--limit", "2"])
        #expect(two.status == 0)
        #expect(
            two.output.split(separator: "\n").filter { $0.hasPrefix("/notes/") }.count == 2, "\(two.output)")
        #expect(two.output.contains("more files match than the 2 shown"), "\(two.output)")
        let three = try await browsey(["grep", "\(base)/notes", "budget", "--limit", "3"])
        #expect(!three.output.contains("more files match"), "\(three.output)")

        let listed = try await browsey(["ls", "\(base)/notes"])
        #expect(
            listed.output.contains("invoice<U+202E>fdp.txt")
                && !listed.output.unicodeScalars.contains { $0.value == 0x202E }, "\(listed.output)")
    }
}
