import FileTree
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thumbnails on disk, one file per picture version and size class, in a folder of their own
/// (outside the served tree): written atomically, bounded by a total size with the least
/// recently used dropped first, and dropped early when the watcher says their picture changed
/// or went away.
///
/// Never stale by construction: a file's key holds its device, inode, size, nanosecond mtime,
/// the size class and the encoder's version, so a changed picture never finds an old
/// thumbnail. Dropping on change only gives the space back sooner.
final class ThumbnailCache: Sendable {
    /// What is on disk for a key.
    private struct Entry {
        var size: Int
        var used: UInt64
        var path: String?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var total = 0
        var clock: UInt64 = 0
        /// Keys made this run, by the absolute path of their picture.
        var keysByPath: [String: Set<String>] = [:]
    }

    /// The folder the files live in.
    let folder: String
    /// That folder held open; `nil` when it could not be made or opened (nothing is cached).
    private let directory: OpenFolder?
    /// The most the files may take together.
    let limit: Int
    private let state = Mutex(State())
    private let logger: Logger

    /// A cache in `folder` (made when missing), taking at most `limit` bytes; what an earlier
    /// run left there is counted, oldest first.
    init(folder: String, limit: Int, logger: Logger) {
        self.folder = folder
        self.limit = limit
        self.logger = logger
        Self.makeFolders(folder)
        directory = try? OpenFolder(path: folder)
        let found = (try? DirectoryReader(filter: .all).entries(at: folder)) ?? []
        let files = found.filter { $0.type == .regular }.sorted {
            ($0.status?.modified ?? Timestamp(seconds: 0, nanoseconds: 0))
                < ($1.status?.modified ?? Timestamp(seconds: 0, nanoseconds: 0))
        }
        state.withLock { state in
            for file in files {
                guard file.name.hasSuffix(".thumb") else {
                    unlink(file.path)  // a write that never finished
                    continue
                }
                let key = String(file.name.dropLast(6))
                state.clock += 1
                state.entries[key] = Entry(size: Int(file.size), used: state.clock)
                state.total += Int(file.size)
            }
        }
        evictIfNeeded()
    }

    /// Whether a thumbnail is stored for `key` (its use is not counted).
    func contains(_ key: String) -> Bool { state.withLock { $0.entries[key] != nil } }

    /// The bytes stored for `key`, marked as just used; `nil` when there are none.
    func read(_ key: String) -> [UInt8]? {
        let known = state.withLock { state -> Bool in
            guard state.entries[key] != nil else { return false }
            state.clock += 1
            state.entries[key]?.used = state.clock
            return true
        }
        guard known else { return nil }
        let descriptor = open(file(key), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            forget(key)
            return nil
        }
        defer { close(descriptor) }
        guard let status = try? FileStatus(descriptor: descriptor) else { return nil }
        let bytes = FileContents.read(descriptor, limit: Int(status.size))
        return bytes?.count == Int(status.size) ? bytes : nil
    }

    /// Keeps `bytes` for `key` (the thumbnail of the picture at `path`): a temporary file
    /// renamed into place, so a reader never sees half a thumbnail. Not flushed to disk: a
    /// thumbnail lost to a crash is made again.
    func store(_ bytes: [UInt8], for key: String, path: String) {
        guard let directory else { return }
        do {
            let writer = try AtomicFileWriter(
                named: key + ".thumb", in: directory, permissions: FilePermissions(rawValue: 0o600))
            try writer.write(bytes)
            try writer.commit(replacing: true, durable: false)
        } catch {
            logger.debug("A thumbnail could not be cached in \(folder) (\(error))")
            return
        }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.total -= old.size }
            state.entries[key] = Entry(size: bytes.count, used: state.clock, path: path)
            state.total += bytes.count
            state.keysByPath[path, default: []].insert(key)
        }
        evictIfNeeded()
    }

    /// Drops the thumbnails of the picture at `path` (an absolute path), and of everything
    /// below it when it is a folder.
    func invalidate(_ path: String) {
        let keys = state.withLock { state -> [String] in
            let prefix = path + "/"
            let paths = state.keysByPath.keys.filter { $0 == path || $0.hasPrefix(prefix) }
            var keys: [String] = []
            for picture in paths {
                keys += state.keysByPath.removeValue(forKey: picture) ?? []
            }
            for key in keys {
                if let entry = state.entries.removeValue(forKey: key) { state.total -= entry.size }
            }
            return keys
        }
        for key in keys { unlink(file(key)) }
    }

    /// How many bytes the cached files take, as counted.
    var totalBytes: Int { state.withLock { $0.total } }

    /// How many thumbnails are cached.
    var count: Int { state.withLock { $0.entries.count } }

    private func forget(_ key: String) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: key) else { return }
            state.total -= entry.size
            if let path = entry.path { state.keysByPath[path]?.remove(key) }
        }
    }

    /// Past the limit, drops the least recently used files until a tenth of it is free.
    private func evictIfNeeded() {
        let victims = state.withLock { state -> [String] in
            guard state.total > limit else { return [] }
            let target = limit - limit / 10
            var victims: [String] = []
            for (key, entry) in state.entries.sorted(by: { $0.value.used < $1.value.used }) {
                guard state.total > target else { break }
                state.entries[key] = nil
                state.total -= entry.size
                if let path = entry.path { state.keysByPath[path]?.remove(key) }
                victims.append(key)
            }
            return victims
        }
        for key in victims { unlink(file(key)) }
    }

    private func file(_ key: String) -> String { folder + "/" + key + ".thumb" }

    /// `mkdir -p`, private to the user.
    private static func makeFolders(_ path: String) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/" + component
            _ = mkdir(partial, 0o700)
        }
    }
}
