import ArgumentParser
import BrowseyAPI
import BrowseyClient

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `browsey ls URL`: a folder's entries on a server.
struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "List a folder on a Browsey server: browsey ls http://host:8080/docs")

    @Argument(help: "The folder's URL, e.g. http://192.168.1.23:8080/docs")
    var url: String

    @Flag(help: "Include hidden names (when the server allows them).")
    var hidden = false

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let listing = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.list(path, hidden: hidden)
        }
        if options.json { return try Output.json(listing) }
        for item in listing.items {
            let name = item.type == .directory ? item.name + "/" : item.name
            let size = item.type == .directory ? "-" : Output.size(item.size)
            Output.line("\(Output.pad(size, 8))  \(Output.date(item.modified))  \(name)")
        }
    }
}

/// `browsey stat URL`: one entry's metadata.
struct Stat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a file's or a folder's metadata: browsey stat http://host:8080/docs/a.md")

    @Argument(help: "The entry's URL.")
    var url: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let stat = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.stat(path)
        }
        if options.json { return try Output.json(stat) }
        Output.line("name:      \(stat.name)")
        print("type:      \(stat.type.rawValue)")
        print("size:      \(stat.size) bytes (\(Output.size(stat.size)))")
        print("modified:  \(Output.date(stat.modified))")
        print("created:   \(Output.date(stat.created))")
        Output.line("path:      \(stat.absolutePath)")
        if let mimeType = stat.mimeType { Output.line("mime type: \(mimeType)") }
    }
}

/// `browsey cat URL`: a file's bytes on standard output.
struct Cat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a file from a Browsey server: browsey cat http://host:8080/notes.md")

    @Argument(help: "The file's URL.")
    var url: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let body = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.stream(path)
        }
        do {
            for try await chunk in body { Output.standardOutput(chunk) }
        } catch {
            throw ClientExit.failure(BrowseyClientError.from(error))
        }
    }
}
