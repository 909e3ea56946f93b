import ArgumentParser
import BrowseyClient

/// `browsey grep URL PATTERN`: lines of the server's text files that hold a pattern, as grep
/// prints them, found by the server's content index.
struct Grep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Find lines in text files under a folder: browsey grep http://host:8080/docs 'quarterly report'",
        discussion: """
            Prints path:line: text for each matching line and exits 1 when nothing matched and 2 on an error, like grep. The pattern is taken literally \
            and case matters, unless -e makes it a regular expression and -i ignores case. The server \
            answers from its content index (it runs without --no-content-index).
            """)

    @Argument(help: "The folder's URL.")
    var url: String

    @Argument(help: "What to look for: a literal string, or with -e a regular expression.")
    var pattern: String

    @Flag(name: .short, help: "Ignore case.")
    var ignoreCase = false

    @Flag(
        name: .customShort("e"),
        help:
            "Read the pattern as a regular expression (PCRE's usual forms; no back-references or look-arounds)."
    )
    var regex = false

    @Option(help: "At most this many files (1 to 200).")
    var limit = 50

    @Option(help: "At most this many lines per file (1 to 20).")
    var lines = 20

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit takes 1 to 200.") }
        guard (1...20).contains(lines) else { throw ValidationError("--lines takes 1 to 20.") }
        guard !pattern.isEmpty else { throw ValidationError("Give a pattern to look for.") }
    }

    func run() async throws {
        let matched: Bool
        do {
            matched = try await search()
        } catch let code as ExitCode where code.rawValue != 0 {
            // The server refused, could not be reached, or asked for a token (the client
            // commands' 1, 3 and 4, the `Error:` line printed): grep's status for any error is
            // 2, 1 saying only that no line matched.
            throw ExitCode(2)
        }
        if !matched { throw ExitCode(1) }
    }

    /// Prints the matching lines; whether there were any.
    private func search() async throws -> Bool {
        let (client, path) = try options.client(for: url)
        let expression = regex ? pattern : Self.literal(pattern)
        let found = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.searchContent(
                expression, in: path, regex: true, ignoresCase: ignoreCase, limit: limit, lines: lines)
        }
        if options.json {
            try Output.json(found)
            return !found.results.isEmpty
        }
        for result in found.results {
            for line in result.lines {
                Output.line("\(result.path):\(line.line): \(line.text)")
            }
        }
        if found.hasMore {
            FileHandleText.standardError(
                "browsey grep: more files match than the \(limit) shown (--limit takes up to 200)\n")
        }
        if !found.complete {
            FileHandleText.standardError(
                "browsey grep: there may be more matches (the server's index is still being built, or it stopped at its time limit)\n"
            )
        }
        // A folder that is not there is an error (the search itself answers an empty list for it).
        if found.results.isEmpty {
            _ = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.stat(path)
            }
        }
        return !found.results.isEmpty
    }

    /// `text` as a regular expression that matches it literally. Read a scalar at a time, as
    /// the server reads an expression: a `(` followed by a combining mark is still escaped.
    static func literal(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if "\\^$.|?*+()[]{}".unicodeScalars.contains(scalar) { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }
}
