import Logging
import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Removes what interrupted uploads left in the served tree, once at start (writable servers
/// only):
///
/// - the part files of resumable uploads (`.browsey-upload-<hash>-<size>.part`) untouched for
///   ``partAge`` (7 days: long enough to resume after a weekend away, short enough that an
///   abandoned gigabyte does not stay forever);
/// - the temporary files of atomic writes (`.<name>.browsey-<random>`, what a plain `PUT`, a
///   form upload or a save writes into before its rename) untouched for ``temporaryAge``
///   (1 day). Nothing ever resumes one, but another process may still be writing it: a live
///   writer changes its modification time with every write, and an upload that stops sending
///   is cut by the idle timeout long before a day.
///
/// A server stopped normally leaves none of the second kind (a cut upload removes its temporary
/// file); they come from a process that was killed.
///
/// The walk is bounded (``maximumEntries``, ``maximumDepth``), never follows a symbolic link
/// (each folder is opened with `O_NOFOLLOW` relative to its parent's descriptor), looks only at
/// regular files, and removes with `unlinkat` relative to the folder's descriptor, so a folder
/// swapped for a link mid-walk cannot lead it outside the root.
struct UploadLeftovers: Service {
    /// Part files untouched this long are removed.
    static let partAge: Duration = .seconds(7 * 24 * 3600)
    /// Temporary files untouched this long are removed.
    static let temporaryAge: Duration = .seconds(24 * 3600)
    /// The walk stops after this many entries…
    static let maximumEntries = 1_000_000
    /// …and does not go deeper than this many folders below the root.
    static let maximumDepth = 64

    let root: String
    let logger: Logger

    func run() async throws {
        let root = self.root
        let removed = try? await NIOThreadPool.singleton.runIfActive {
            Self.sweep(root: root, now: Self.wallClockNow())
        }
        if let removed, removed.count > 0 {
            logger.info(
                "Removed \(removed.count) files left by interrupted uploads (\(removed.bytes) bytes)",
                metadata: ["root": "\(root)"])
        }
        try? await gracefulShutdown()
    }

    /// What a sweep removed.
    struct Removed: Equatable, Sendable {
        var count = 0
        var bytes: Int64 = 0
    }

    /// Walks the tree under `root` and removes the leftovers older than their limit at `now`
    /// (seconds since 1970).
    static func sweep(root: String, now: Int64) -> Removed {
        var removed = Removed()
        var entries = 0
        let top = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard top >= 0 else { return removed }
        sweep(folder: top, depth: 0, now: now, entries: &entries, removed: &removed)
        return removed
    }

    /// Sweeps the open folder `descriptor` (and closes it).
    private static func sweep(
        folder descriptor: Int32, depth: Int, now: Int64, entries: inout Int, removed: inout Removed
    ) {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(directory) }
        var folders: [String] = []
        while entries < maximumEntries, let entry = readdir(directory) {
            entries += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let type = entry.pointee.d_type
            if type == UInt8(DT_DIR) {
                folders.append(name)
                continue
            }
            guard type == UInt8(DT_REG) || type == UInt8(DT_UNKNOWN), let limit = age(ofLeftover: name) else {
                continue
            }
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                folders.append(name)
                continue
            }
            guard status.st_mode & S_IFMT == S_IFREG else { continue }
            #if canImport(Darwin)
                let modified = Int64(status.st_mtimespec.tv_sec)
            #else
                let modified = Int64(status.st_mtim.tv_sec)
            #endif
            let untouched = now - modified
            guard untouched >= Int64(limit.components.seconds) else { continue }
            if unlinkat(descriptor, name, 0) == 0 {
                removed.count += 1
                removed.bytes += Int64(status.st_size)
            }
        }
        guard depth < maximumDepth else { return }
        for name in folders where entries < maximumEntries {
            let child = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard child >= 0 else { continue }
            sweep(folder: child, depth: depth + 1, now: now, entries: &entries, removed: &removed)
        }
    }

    /// How long a file named `name` must be untouched to be removed; `nil` when the name is not
    /// an upload's leftover.
    static func age(ofLeftover name: String) -> Duration? {
        if name.hasPrefix(".browsey-upload-") && name.hasSuffix(".part") { return partAge }
        // `.<name>.browsey-<base-36 random>`
        let bytes = Array(name.utf8)
        let marker = Array(".browsey-".utf8)
        guard bytes.count > marker.count + 2, bytes[0] == UInt8(ascii: ".") else { return nil }
        var start = bytes.count - marker.count
        while start > 1 && !bytes[start..<(start + marker.count)].elementsEqual(marker) { start -= 1 }
        guard start > 1 else { return nil }
        let random = bytes[(start + marker.count)...]
        guard (1...13).contains(random.count),
            random.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        return temporaryAge
    }

    /// Seconds since 1970, the clock file times are on.
    static func wallClockNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }
}
