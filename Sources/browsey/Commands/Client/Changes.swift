import ArgumentParser
import BrowseyClient

/// `browsey rm URL…`: deletes entries (into the server's trash when it keeps one).
struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete files or folders on a writable server: browsey rm http://host:8080/old.txt")

    @Argument(help: "The entries' URLs.")
    var urls: [String]

    @Flag(name: .shortAndLong, help: "Delete folders too, with everything in them (to the server's Trash).")
    var recursive = false

    @OptionGroup var options: ClientOptions

    func run() async throws {
        for url in urls {
            let (client, path) = try options.client(for: url)
            if !recursive {
                // As rm does: a folder, and all it holds, goes only when asked for by -r.
                let entry = try await ClientExit.run { () async throws(BrowseyClientError) in
                    try await client.stat(path)
                }
                guard entry.type != .directory else {
                    throw ClientExit.refuse("\(url) is a folder: add -r to delete it and everything in it.")
                }
            }
            _ = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.delete(path)
            }
        }
    }
}

/// `browsey mkdir URL`: makes a folder.
struct MakeFolder: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mkdir",
        abstract: "Make a folder on a writable server: browsey mkdir http://host:8080/new")

    @Argument(help: "The new folder's URL.")
    var url: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        _ = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.makeFolder(path)
        }
    }
}

/// `browsey mv URL FOLDER` and `browsey cp URL FOLDER`: move or copy an entry into a folder of
/// the same server.
struct Move: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv", abstract: "Move an entry into a folder: browsey mv http://host:8080/a.txt /archive"
    )

    @Argument(help: "The entry's URL.")
    var url: String

    @Argument(help: "The folder to move it into, as a path on the same server (e.g. /archive).")
    var destination: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let moved = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.move(path, into: destination)
        }
        if options.json { try Output.json(moved) } else { print(moved.newPath) }
    }
}

/// `browsey cp URL FOLDER`.
struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cp", abstract: "Copy an entry into a folder: browsey cp http://host:8080/a.txt /backup")

    @Argument(help: "The entry's URL.")
    var url: String

    @Argument(help: "The folder to copy it into, as a path on the same server (e.g. /backup).")
    var destination: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let copied = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.copy(path, into: destination)
        }
        if options.json { try Output.json(copied) } else { print(copied.newPath) }
    }
}

/// `browsey find URL QUERY`: names matching a query under a folder, best first.
struct Find: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find files by name under a folder: browsey find http://host:8080/docs report")

    @Argument(help: "The folder's URL.")
    var url: String

    @Argument(help: "What to look for (letters in order: 'rprt' finds 'report.md').")
    var query: String

    @Option(help: "At most this many results (1 to 200).")
    var limit = 50

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit takes 1 to 200.") }
    }

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let found = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.search(query, in: path, limit: limit)
        }
        if options.json { return try Output.json(found) }
        for result in found.results {
            Output.line(result.type == .directory ? result.path + "/" : result.path)
        }
    }
}
