import ArgumentParser
import BrowseyAPI
import BrowseyClient
import FileTree

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `browsey put LOCAL URL`: uploads a file, or a folder with `-r`, resumably.
struct Put: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload a file or a folder: browsey put report.pdf http://host:8080/docs/",
        discussion: """
            A URL ending in / is a folder: the file keeps its name there. Nothing on the server is \
            replaced unless --overwrite (or --keep-both, which picks a free name). Run the same \
            command again after an interruption: each file goes on where it stopped, and files \
            already there with the same size, not changed here since, are skipped (one changed \
            here since is refused like any other: --overwrite replaces it).
            """)

    @Argument(help: "The local file or folder.")
    var local: String

    @Argument(help: "Where on the server: a folder URL ending in /, or a file URL.")
    var url: String

    @Flag(name: .shortAndLong, help: "Upload a folder and everything in it.")
    var recursive = false

    @Flag(help: "Replace files that exist on the server.")
    var overwrite = false

    @Flag(help: "Keep both when a name exists: the server picks a free one.")
    var keepBoth = false

    @OptionGroup var options: ClientOptions

    func run() async throws {
        let (client, remote) = try options.client(for: url)
        let policy: ExistingFile = overwrite ? .replace : keepBoth ? .keepBoth : .refuse
        let reader = DirectoryReader()
        let entry: FileEntry
        do {
            entry = try reader.entry(at: local)
        } catch {
            FileHandleText.standardError("Error: cannot read \(local): \(error.message)\n")
            throw ExitCode(6)
        }
        let target = remote.hasSuffix("/") ? remote + entry.name : remote
        guard entry.type == .directory else {
            return try await upload(file: entry.path, to: target, client: client, policy: policy)
        }
        guard recursive else { throw ClientExit.refuse("\(local) is a folder: add -r to upload it.") }
        do {
            let root = try await reader.read(at: entry.path, depth: .deep)
            try await upload(folder: root, to: target, client: client, policy: policy)
        } catch let error as FileTreeError {
            FileHandleText.standardError("Error: cannot read \(local): \(error.message)\n")
            throw ExitCode(6)
        }
    }

    private func upload(
        folder: FileNode, to target: String, client: APIClient, policy: ExistingFile
    ) async throws {
        if await Self.remote(target, client: client) == nil {
            _ = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.makeFolder(target)
            }
        }
        for child in folder.children ?? [] {
            let path = target + "/" + child.entry.name
            if child.entry.type == .directory {
                try await upload(folder: child, to: path, client: client, policy: policy)
            } else if child.entry.type == .regular {
                try await upload(file: child.entry.path, to: path, client: client, policy: policy)
            }
        }
    }

    private func upload(file: String, to target: String, client: APIClient, policy: ExistingFile) async throws
    {
        let label = target.split(separator: "/").last.map(String.init) ?? target
        if policy == .refuse, let remote = await Self.remote(target, client: client) {
            // Already there, as large, and not changed here since it got there: a second run
            // after an interruption skips it. A file changed here since is another file.
            if Self.isUploaded(file, as: remote) { return }
            FileHandleText.standardError(
                "Error: \(target) already exists on the server (--overwrite replaces it, --keep-both keeps both)\n"
            )
            throw ExitCode(5)
        }
        let bar = ProgressBar(label: label, enabled: isTerminal && !options.json)
        let done = try await ClientExit.run { () async throws(BrowseyClientError) in
            try await client.upload(file, to: target, ifExists: policy) { bar.show($0) }
        }
        bar.finish(DownloadProgress(received: done.size, total: done.size))
        if options.json { try Output.json(done) }
    }

    /// What the server has at `target`, if anything.
    private static func remote(_ target: String, client: APIClient) async -> StatResponse? {
        try? await client.stat(target)
    }

    /// Whether the server's `remote` is the local `file` uploaded: a file of the same size, last
    /// changed there no earlier than here (an upload dates the file when it lands). A file
    /// written here after its upload, even to the same size, is not.
    static func isUploaded(_ file: String, as remote: StatResponse) -> Bool {
        var status = stat()
        guard remote.type != .directory, stat(file, &status) == 0, Int64(status.st_size) == remote.size else {
            return false
        }
        #if canImport(Darwin)
            let local = status.st_mtimespec
        #else
            let local = status.st_mtim
        #endif
        let localMilliseconds = Int64(local.tv_sec) * 1000 + Int64(local.tv_nsec) / 1_000_000
        let remoteMilliseconds = Int64((remote.modified.timeIntervalSince1970 * 1000).rounded(.down))
        return remoteMilliseconds >= localMilliseconds
    }
}
