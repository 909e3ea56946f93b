import ArgumentParser
import BrowseyClient

/// `browsey grep URL PATTERN`: lines of the server's text files that hold a pattern, as grep
/// prints them, found by the server's content index.
struct Grep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Find lines in text files under a folder: browsey grep http://host:8080/docs 'quarterly report'",
        discussion: """
            Prints path:line: text for each matching line and exits 1 when nothing matched, like grep. The pattern is taken literally \
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
        help: "Read the pattern as a regular expression (Swift Regex syntax, like PCRE).")
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
        let (client, path) = try options.client(for: url)
        let expression = regex ? pattern : Self.literal(pattern)
        let found = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.searchContent(
                expression, in: path, regex: true, ignoresCase: ignoreCase, limit: limit, lines: lines)
        }
        if options.json { return try Output.json(found) }
        for result in found.results {
            for line in result.lines { print("\(result.path):\(line.line): \(line.text)") }
        }
        if !found.complete {
            FileHandleText.standardError(
                "browsey grep: there may be more matches (the server's index is still being built, or it stopped at its time limit)\n"
            )
        }
        // Like grep: status 1 when nothing matched; a folder that is not there is an error
        // (the search itself answers an empty list for it).
        if found.results.isEmpty {
            _ = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.stat(path)
            }
            throw ExitCode(1)
        }
    }

    /// `text` as a regular expression that matches it literally.
    static func literal(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
