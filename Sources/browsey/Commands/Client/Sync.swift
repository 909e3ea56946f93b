import ArgumentParser
import BrowseyClient

/// `browsey sync URL LOCALDIR`: keeps a local one-way copy of a server folder.
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep a local copy of a folder: browsey sync http://host:8080/docs ~/docs-copy",
        discussion: """
            One way, server to here: files new or changed on the server (size or date) are \
            downloaded, each appearing whole (it grows as NAME.part), and files the server no \
            longer has are removed from the copy. Run it again at any time: when nothing \
            changed it costs one small request, and after an interruption it fetches only \
            what is still missing. LOCALDIR must be missing, empty or an earlier copy of the \
            same folder, which the file .browsey-sync inside it marks: a folder holding \
            anything else is refused, so nothing of yours is ever removed. Hidden names are \
            copied only from a server started with --hidden; links to folders are not followed.
            """)

    @Argument(help: "The folder's URL.")
    var url: String

    @Argument(help: "The local folder that holds the copy (made when missing).")
    var localFolder: String

    @Option(help: "Files downloaded at once.")
    var parallel = 4

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (1...64).contains(parallel) else { throw ValidationError("--parallel takes 1 to 64.") }
        guard !localFolder.isEmpty else {
            throw ValidationError("Give the local folder that holds the copy.")
        }
    }

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let json = options.json
        let report = try await ClientExit.run { () async throws(BrowseyClientError) in
            var mirror = try client.pin(path.isEmpty ? "/" : path, into: localFolder)
            mirror.parallel = parallel
            return try await mirror.sync()
        }
        if json {
            try Output.json([
                "folder": localFolder, "revision": report.revision, "unchanged": String(report.unchanged),
                "downloaded": String(report.downloaded), "bytes": String(report.downloadedBytes),
                "removed": String(report.removed),
            ])
        } else if report.unchanged {
            print("\(localFolder): up to date")
        } else {
            print(
                "\(localFolder): \(report.downloaded) downloaded (\(Output.size(report.downloadedBytes))), \(report.removed) removed, \(report.files) files"
            )
        }
    }
}
