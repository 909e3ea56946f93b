import ArgumentParser
import BrowseyAPI
import BrowseyClient

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `browsey share URL [--expires 7d] [--password] [--upload]`: make a share link.
struct ShareLink: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Make a link to one file or folder: browsey share http://host:8080/docs/a.pdf --expires 7d",
        discussion: "Needs a signed-in user's token (browsey login). Prints the link.")

    @Argument(help: "The file's or folder's URL.")
    var url: String

    @Option(
        help: ArgumentHelp(
            "How long the link works: 30m, 12h, 7d (default: until revoked).", valueName: "time"))
    var expires: String?

    @Flag(help: "Ask for a password that the link will ask for.")
    var password = false

    @Flag(help: "A file request: people add files to the folder and see nothing of it.")
    var upload = false

    @OptionGroup var options: ClientOptions

    func validate() throws {
        if let expires, Self.seconds(expires) == nil {
            throw ValidationError("--expires takes a number and a unit: 30m, 12h, 7d.")
        }
    }

    /// Seconds in `30m`, `12h`, `7d` (or a bare number of seconds).
    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        if let last = text.last, let unit = units[last], let number = Int(text.dropLast()), number > 0 {
            return number * unit
        }
        return Int(text).flatMap { $0 > 0 ? $0 : nil }
    }

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let secret = password ? try Passwd.readPassword() : nil
        let until = expires.flatMap(Self.seconds).map { Date().addingTimeInterval(Double($0)) }
        let share = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.share(path, expires: until, password: secret, upload: upload)
        }
        Output.line(client.server.baseURL + share.url)
    }
}

/// `browsey shares URL`: list my share links.
struct Shares: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List your share links (an administrator's: everyone's): browsey shares http://host:8080")

    @Argument(help: "The server's URL.")
    var url: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, _) = try options.client(for: url)
        let shares = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.shares()
        }
        for share in shares {
            var line = "\(share.id)  \(share.path)  \(share.owner)"
            if share.upload { line += "  upload" }
            if share.hasPassword { line += "  password" }
            if let expires = share.expires { line += "  until \(BrowseyDate.string(from: expires))" }
            line += "  \(share.downloads) downloads  \(client.server.baseURL)\(share.url)"
            Output.line(line)
        }
    }
}

/// `browsey unshare URL ID`: revoke a share link.
struct Unshare: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Revoke a share link: browsey unshare http://host:8080 ID")

    @Argument(help: "The server's URL.")
    var url: String

    @Argument(help: "The share's id (from browsey shares).")
    var id: String

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, _) = try options.client(for: url)
        try await ClientExit.run { () async throws(BrowseyClientError) in try await client.unshare(id) }
    }
}
