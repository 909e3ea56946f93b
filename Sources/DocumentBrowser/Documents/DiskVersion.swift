import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a document looked like on disk when it was opened or saved: each file's identity, size
/// and dates (every file of a package). A different value later means someone else changed it.
struct DiskVersion: Sendable, Hashable {
    private var parts: [Part]

    private struct Part: Sendable, Hashable {
        var name: String
        var inode: UInt64
        var size: Int64
        var modified: Timestamp
        var statusChanged: Timestamp
    }

    /// The version of the item at `path`; `nil` when it is not there.
    static func current(at path: String) -> DiskVersion? {
        guard let top = try? DirectoryReader().entry(at: path), let status = top.status else { return nil }
        var parts = [
            Part(
                name: "", inode: status.inode, size: status.size, modified: status.modified,
                statusChanged: status.statusChanged)
        ]
        if top.type == .directory {
            _ = try? DirectoryReader(order: .browsey).walk(at: path) { entry, _ in
                if let inner = entry.status {
                    parts.append(
                        Part(
                            name: entry.path, inode: inner.inode, size: inner.size, modified: inner.modified,
                            statusChanged: inner.statusChanged))
                }
                return .continue
            }
        }
        return DiskVersion(parts: parts)
    }

    /// Whether the item and the folder it is in can be written by this process, and the file
    /// is not marked read-only (no write permission bit: a locked file even for root).
    static func isWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        for item in [path, folder] {
            guard access(item, W_OK) == 0, let status = try? DirectoryReader().entry(at: item).status,
                status.mode & 0o222 != 0
            else { return false }
        }
        return true
    }
}
