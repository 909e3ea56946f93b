import ArgumentParser
import BrowseyClient
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `browsey get URL [-o FILE]`: downloads a file, resumably.
struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Download a file: browsey get http://host:8080/video.mp4 [-o clip.mp4]",
        discussion: """
            The file appears whole or not at all (it grows as FILE.part). Run the same command \
            again after an interruption and it goes on where it stopped, unless the file changed \
            on the server. A progress bar shows on a terminal; nothing is printed otherwise.
            """)

    @Argument(help: "The file's URL.")
    var url: String

    @Option(
        name: .shortAndLong,
        help:
            "Where to save it: a file, or a folder to save it in (default: its name, in the current folder)."
    )
    var output: String?

    @Flag(help: "Start over instead of continuing a .part.")
    var noResume = false

    @Flag(
        name: .shortAndLong,
        help:
            "Download a folder and everything in it (files already here with the same size and date are skipped)."
    )
    var recursive = false

    @Flag(help: "Download a folder as one ZIP archive (FOLDER.zip, or -o).")
    var zip = false

    @Option(help: "Files downloaded at once with -r.")
    var parallel = 8

    @OptionGroup var options: ClientOptions

    func validate() throws {
        guard (1...64).contains(parallel) else { throw ValidationError("--parallel takes 1 to 64.") }
        guard !(zip && recursive) else {
            throw ValidationError("Choose -r (the files) or --zip (one archive), not both.")
        }
    }

    func run() async throws {
        let (client, path) = try options.client(for: url)
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        if recursive {
            let target = output ?? (name.isEmpty ? "." : name)
            let copied = try await FolderDownload(client: client, parallel: parallel, resume: !noResume)
                .run(remote: path, local: target)
            if options.json {
                try Output.json([
                    "folder": target, "files": String(copied.files), "bytes": String(copied.bytes),
                ])
            }
            return
        }
        if zip {
            let archive = (name.isEmpty ? "root" : name) + ".zip"
            let destination = output.map { Self.place(archive, in: $0) } ?? archive
            let bar = ProgressBar(label: destination, enabled: isTerminal && !options.json)
            let done = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.downloadArchive(of: path.isEmpty ? "/" : path, to: destination) {
                    bar.show($0)
                }
            }
            bar.finish(done)
            if options.json { try Output.json(["path": destination, "bytes": String(done.received)]) }
            return
        }
        guard !name.isEmpty || (output.map { !Self.isFolder($0) } ?? false) else {
            throw ClientExit.refuse("The URL names no file; give one, or -o FILE.")
        }
        let destination = output.map { Self.place(name, in: $0) } ?? name
        if destination.hasSuffix("/") { throw ClientExit.refuse("\(destination) is not a folder here.") }
        let bar = ProgressBar(label: name, enabled: isTerminal && !options.json)
        let done = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.download(path, to: destination, resume: !noResume) { bar.show($0) }
        }
        bar.finish(done)
        if options.json {
            try Output.json(["path": destination, "bytes": String(done.received)])
        }
    }
}

extension Get {
    /// Where `-o output` saves a file named `name`: in `output` when it is a folder (as `cp`
    /// does), else at `output` itself.
    static func place(_ name: String, in output: String) -> String {
        guard isFolder(output) else { return output }
        return (output.hasSuffix("/") ? output : output + "/") + name
    }

    /// Whether `path` is a folder here (symlinks followed).
    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

/// A one-line progress bar on standard error, redrawn at most ten times a second.
final class ProgressBar: Sendable {
    private let label: String
    private let enabled: Bool
    private let last = Mutex<ContinuousClock.Instant?>(nil)

    init(label: String, enabled: Bool) {
        self.label = label
        self.enabled = enabled
    }

    func show(_ progress: DownloadProgress) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = last.withLock { last in
            guard last.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            last = now
            return true
        }
        if due { draw(progress) }
    }

    func finish(_ progress: DownloadProgress) {
        guard enabled else { return }
        draw(progress)
        FileHandleText.standardError("\n")
    }

    private func draw(_ progress: DownloadProgress) {
        guard progress.total != nil else {  // an archive: its size is known only at the end
            FileHandleText.standardError(
                "\r\(Output.visible(String(label.prefix(30))))  \(Output.size(progress.received))\u{1B}[K")
            return
        }
        let width = 30
        let fraction = progress.fraction ?? 0
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let total = progress.total.map { " / " + Output.size($0) } ?? ""
        FileHandleText.standardError(
            "\r\(Output.visible(String(label.prefix(30))))  \(bar)  \(Int(fraction * 100))%  \(Output.size(progress.received))\(total)\u{1B}[K"
        )
    }
}
