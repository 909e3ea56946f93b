import ArgumentParser
import BrowseyAPI
import BrowseyClient

/// `browsey git status|log|show URL`: a served repository's state, history and commits.
struct Git: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Look at a git repository on a Browsey server: browsey git status http://host:8080/project",
        subcommands: [GitStatus.self, GitLog.self, GitShow.self])
}

/// `browsey git status URL`.
struct GitStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "The branch and the changed files of the repository a folder lies in.")

    @Argument(help: "A folder's URL inside the repository, e.g. http://192.168.1.23:8080/project")
    var url: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let (status, changes) = try await ClientExit.run {
            () async throws(BrowseyClientError) -> (GitStatusResponse, GitChangesResponse) in
            (try await client.gitStatus(at: path), try await client.gitChanges(at: path))
        }
        guard status.isRepo else {
            FileHandleText.standardError("Error: \(path) is not in a git repository on that server\n")
            throw ExitCode(1)
        }
        if options.json { return try Output.json(changes) }
        Output.line("On branch \(status.branch ?? "(no commits yet)")")
        if let last = status.lastCommit { Output.line("Last commit \(last.shortHash) \(last.message)") }
        let sections: [(String, [GitChange], (GitChange) -> String)] = [
            ("Staged", changes.staged, \.indexStatus), ("Changed", changes.unstaged, \.workTreeStatus),
            ("Untracked", changes.untracked, { _ in "?" }),
        ]
        for (title, list, letter) in sections where !list.isEmpty {
            print("\n\(title):")
            for change in list {
                Output.line(
                    "  \(letter(change)) \(change.path)" + (change.originalPath.map { " (from \($0))" } ?? "")
                )
            }
        }
        if !status.isDirty { print("Nothing changed.") }
    }
}

/// `browsey git log URL`.
struct GitLog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "The repository's history, newest first.")

    @Argument(help: "A folder's URL inside the repository.")
    var url: String

    @Option(help: "At most this many commits (1 to 100).")
    var limit = 25

    @Option(help: "Skip this many of the newest commits first.")
    var skip = 0

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit takes 1 to 100.") }
        guard skip >= 0 else { throw ValidationError("--skip takes 0 or more.") }
    }

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let page = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.gitLog(at: path, limit: limit, skip: skip)
        }
        if options.json { return try Output.json(page) }
        for commit in page.commits {
            Output.line("\(commit.shortHash)  \(commit.date)  \(commit.author): \(commit.message)")
        }
        if page.hasMore { print("… older commits: --skip \(skip + page.commits.count)") }
    }
}

/// `browsey git show URL HASH`.
struct GitShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One commit: its message, its files and, with --patch, their diffs.")

    @Argument(help: "A folder's URL inside the repository.")
    var url: String

    @Argument(help: "The commit's hash (7 to 64 hex digits).")
    var hash: String

    @Flag(help: "Print each file's diff too.")
    var patch = false

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (7...64).contains(hash.count), hash.allSatisfy(\.isHexDigit) else {
            throw ValidationError("A commit hash is 7 to 64 hex digits, e.g. 3f2a9c1.")
        }
    }

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let commit = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.gitCommit(hash, at: path)
        }
        if options.json && !patch { return try Output.json(commit) }
        Output.line("commit \(commit.hash)")
        Output.line("Author: \(commit.author) <\(commit.authorEmail)>")
        Output.line("Date:   \(commit.date)")
        print("\n    \(Output.visible(commit.message))")
        if !commit.body.isEmpty {
            print(
                "\n"
                    + commit.body.split(separator: "\n", omittingEmptySubsequences: false).map {
                        "    " + Output.visible(String($0))
                    }
                    .joined(separator: "\n"))
        }
        print("\n\(commit.stats.files) files, +\(commit.stats.additions) -\(commit.stats.deletions)")
        for file in commit.files {
            Output.line("  \(file.status) \(file.path)" + (file.originalPath.map { " (from \($0))" } ?? ""))
        }
        guard patch else { return }
        for file in commit.files {
            let diff = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.gitDiff(
                    file.path, at: path, hash: commit.hash, originalPath: file.originalPath)
            }
            print("")
            Output.line("--- \(file.originalPath ?? file.path)")
            Output.line("+++ \(file.path)")
            if diff.binary { print("(binary)") }
            for hunk in diff.hunks {
                Output.line(
                    "@@ -\(hunk.oldStart),\(hunk.oldLines) +\(hunk.newStart),\(hunk.newLines) @@ \(hunk.header)"
                )
                for line in hunk.lines {
                    let sign = line.kind == .added ? "+" : line.kind == .removed ? "-" : " "
                    Output.line(sign + line.text)
                }
            }
            if diff.truncated { print("(cut short)") }
        }
    }
}
