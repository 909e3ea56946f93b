import ArgumentParser
import BrowseyAPI
import BrowseyClient

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

/// A folder copied from a server: its tree listed, its files fetched several at once, each
/// dated as on the server so that a second run skips what it already has.
struct FolderDownload {
    let client: APIClient
    let parallel: Int
    let resume: Bool

    /// Copies `remote` into the local folder `local`; what was copied.
    func run(remote: String, local: String) async throws -> (files: Int, bytes: Int64) {
        var files: [(remote: String, local: String, item: ListItem)] = []
        var folders = [(remote, local)]
        while let (folder, target) = folders.popLast() {
            guard mkdir(target, 0o755) == 0 || errno == EEXIST else {
                FileHandleText.standardError(
                    "Error: cannot make \(target): \(String(cString: strerror(errno)))\n")
                throw ExitCode(6)
            }
            let listing = try await ClientExit.run { () async throws(BrowseyClientError) in
                try await client.list(folder)
            }
            for item in listing.items {
                guard FolderMirror.isSafeName(item.name) else {
                    FileHandleText.standardError(
                        "Error: the server listed \(Output.visible(item.name)) in \(Output.visible(folder)), which is not a file name; nothing was copied\n"
                    )
                    throw ExitCode(1)
                }
                let remotePath = (folder.hasSuffix("/") ? folder : folder + "/") + item.name
                let localPath = target + "/" + item.name
                switch item.type {
                case .directory: folders.append((remotePath, localPath))
                case .file: files.append((remotePath, localPath, item))
                case .symlink: if item.targetType == .file { files.append((remotePath, localPath, item)) }
                }
            }
        }
        let pending = files.filter { !Self.isCurrent($0.local, item: $0.item) }
        var copied: (files: Int, bytes: Int64) = (0, 0)
        try await withThrowingTaskGroup(of: Int64.self) { group in
            var next = pending.makeIterator()
            func start(_ file: (remote: String, local: String, item: ListItem)) {
                group.addTask { [client, resume] in
                    let done = try await ClientExit.run { () async throws(BrowseyClientError) in
                        try await client.download(file.remote, to: file.local, resume: resume, flushes: false)
                    }
                    Self.setModified(file.local, to: file.item.modified)
                    return done.received
                }
            }
            for _ in 0..<parallel { if let file = next.next() { start(file) } }
            while let bytes = try await group.next() {
                copied.files += 1
                copied.bytes += bytes
                if let file = next.next() { start(file) }
            }
        }
        // Each file was renamed into place unflushed; one flush for them all before saying done.
        // (After a crash, a file left short differs in size and the next run fetches it again.)
        LocalFile.flushFileSystem(of: local)
        return copied
    }

    /// Whether the local file already is the server's: same size, same date to the second.
    static func isCurrent(_ path: String, item: ListItem) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, Int64(status.st_size) == item.size else { return false }
        #if canImport(Darwin)
            let seconds = Int64(status.st_mtimespec.tv_sec)
        #else
            let seconds = Int64(status.st_mtim.tv_sec)
        #endif
        return seconds == Int64(item.modified.timeIntervalSince1970.rounded(.down))
    }

    /// Dates a downloaded file as the server does.
    static func setModified(_ path: String, to date: Date) {
        let seconds = date.timeIntervalSince1970
        var times = [
            timespec(tv_sec: time_t(seconds.rounded(.down)), tv_nsec: 0),
            timespec(tv_sec: time_t(seconds.rounded(.down)), tv_nsec: 0),
        ]
        _ = utimensat(AT_FDCWD, path, &times, 0)
    }
}
