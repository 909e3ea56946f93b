import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server folder kept as an exact local copy, one way: each ``sync(progress:)`` asks the
/// server's sync manifest with the revision of the last complete sync, and when something
/// changed downloads what is new or different (size or date), removes what went, and records
/// the new revision.
///
/// - Cheap when nothing changed: one request whose answer is `{"unchanged":true}`.
/// - Atomic per file: each download lands in `name.part` and is renamed into place whole.
/// - Resumable: an interrupted sync leaves the files it finished (and a large file's `.part`);
///   the next one fetches only the rest, since the revision is recorded only once all is done.
/// - Never outside the local folder: names from the server are checked (no `/`, `.`, `..` or
///   NUL), nothing local is followed through a link, and only what lies inside the local folder
///   and is not on the server is removed.
/// - Never over someone's files: the local folder must be missing, empty or an earlier mirror
///   of the same server folder, known by its marker file ``markerName``.
public struct FolderMirror: Sendable {
    /// What one sync did.
    public struct Report: Sendable, Hashable {
        /// The revision the local copy now has.
        public var revision: String
        /// Whether the server said nothing changed (nothing else was asked).
        public var unchanged: Bool
        /// Files downloaded, and their bytes.
        public var downloaded: Int
        /// The bytes downloaded.
        public var downloadedBytes: Int64
        /// Local files and folders removed because the server no longer has them.
        public var removed: Int
        /// Files the copy holds.
        public var files: Int
    }

    /// How far a sync is: files done of those to fetch.
    public struct Progress: Sendable, Hashable {
        /// Files downloaded so far.
        public var done: Int
        /// Files this sync downloads.
        public var total: Int
    }

    /// The marker file in the local folder, which says it is a mirror, of what, and at which
    /// revision.
    public static let markerName = ".browsey-sync"

    /// The client asked.
    public let client: APIClient
    /// The folder on the server.
    public let folder: String
    /// The local folder that holds the copy.
    public let localFolder: String
    /// How many files are fetched at once.
    public var parallel = 4

    private var markerPath: String { localFolder + "/" + Self.markerName }

    /// A mirror of `folder` into `localFolder`, which is made when missing; refused when it
    /// holds anything but an earlier mirror of the same folder of the same server.
    init(client: APIClient, folder: String, localFolder: String) throws(BrowseyClientError) {
        self.client = client
        self.folder = Self.normalized(folder)
        var local = localFolder
        while local.count > 1 && local.hasSuffix("/") { local.removeLast() }
        self.localFolder = local
        if let marker = Self.readMarker(at: local + "/" + Self.markerName) {
            guard marker.source == source else {
                throw BrowseyClientError(
                    .invalidInput,
                    "\(local) mirrors \(marker.source), not \(source): choose another local folder")
            }
            return
        }
        switch Self.kind(local) {
        case .none:
            guard mkdir(local, 0o755) == 0 || errno == EEXIST else {
                throw BrowseyClientError(
                    .localFile, "cannot make \(local): \(String(cString: strerror(errno)))")
            }
        case .directory:
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: local)) ?? [""]
            guard entries.isEmpty else {
                throw BrowseyClientError(
                    .invalidInput,
                    "\(local) is not empty and is not a mirror (it has no \(Self.markerName)): choose an empty or new folder, so that nothing of yours is removed"
                )
            }
        case .file, .other:
            throw BrowseyClientError(.invalidInput, "\(local) is not a folder")
        }
        writeMarker(revision: "")
    }

    /// The server and folder the mirror copies, as the marker records them.
    var source: String { "\(client.server.baseURL)\(folder)" }

    /// Brings the local copy up to date with the server's folder.
    @discardableResult
    public func sync(
        progress: @Sendable (Progress) -> Void = { _ in }
    ) async throws(BrowseyClientError) -> Report {
        let known = Self.readMarker(at: markerPath)?.revision
        let manifest = try await client.syncManifest(folder, revision: known?.isEmpty == false ? known : nil)
        if manifest.unchanged {
            return Report(
                revision: manifest.revision, unchanged: true, downloaded: 0, downloadedBytes: 0, removed: 0,
                files: 0)
        }
        let plan = try plan(manifest)
        var removed = 0
        for place in plan.folders {
            let path = local(place)
            if Self.kind(path) != .directory {
                if Self.kind(path) != .none { removed += remove(path) }
                guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                    throw BrowseyClientError(
                        .localFile, "cannot make \(path): \(String(cString: strerror(errno)))")
                }
            }
        }
        let pending = plan.files.filter { !Self.isCurrent(local($0.place), $0.item) }
        progress(Progress(done: 0, total: pending.count))
        var bytes: Int64 = 0
        var done = 0
        do {
            try await withThrowingTaskGroup(of: Int64.self) { group in
                var next = pending.makeIterator()
                func start(_ file: (place: String, remote: String, item: ListItem)) {
                    let path = local(file.place)
                    group.addTask { [client] in
                        // A folder or a link where the file goes is replaced.
                        if Self.kind(path) != .none && Self.kind(path) != .file { _ = remove(path) }
                        unlink(path + ".part")
                        let received = try await client.download(
                            file.remote, to: path, resume: true, flushes: false)
                        Self.setModified(path, to: file.item.modified)
                        return received.received
                    }
                }
                for _ in 0..<max(1, parallel) { if let file = next.next() { start(file) } }
                while let received = try await group.next() {
                    bytes += received
                    done += 1
                    progress(Progress(done: done, total: pending.count))
                    if let file = next.next() { start(file) }
                }
            }
        } catch let error as BrowseyClientError {
            throw error
        } catch {
            throw BrowseyClientError.from(error)
        }
        removed += removeLeftovers(keeping: plan)
        LocalFile.flushFileSystem(of: localFolder)
        writeMarker(revision: manifest.revision)
        return Report(
            revision: manifest.revision, unchanged: false, downloaded: pending.count, downloadedBytes: bytes,
            removed: removed, files: plan.files.count)
    }

    // MARK: The plan

    /// What the copy should hold: folders (relative, `""` for the top) and files, each with
    /// its server path and item.
    struct Plan {
        var folders: [String] = []
        var files: [(place: String, remote: String, item: ListItem)] = []
        var kept: Set<String> = []
    }

    private func plan(_ manifest: SyncManifestResponse) throws(BrowseyClientError) -> Plan {
        var plan = Plan()
        let top = Self.normalized(manifest.path)
        for directory in manifest.directories ?? [] {
            let path = Self.normalized(directory.path)
            let place: String
            if path == top {
                place = ""
            } else if path.hasPrefix(top == "/" ? "/" : top + "/") {
                place = String(path.dropFirst(top == "/" ? 1 : top.count + 1))
            } else {
                throw refused("a folder outside \(top): \(path)")
            }
            for component in place.split(separator: "/", omittingEmptySubsequences: false)
            where !place.isEmpty {
                guard Self.isSafeName(String(component)) else {
                    throw refused("an unsafe folder name: \(path)")
                }
            }
            if !place.isEmpty {
                plan.folders.append(place)
                plan.kept.insert(place)
            }
            for item in directory.items {
                guard Self.isSafeName(item.name) else { throw refused("an unsafe name: \(item.name)") }
                let child = place.isEmpty ? item.name : place + "/" + item.name
                if child == Self.markerName { continue }
                let remote = (path == "/" ? "" : path) + "/" + item.name
                switch item.type {
                case .directory: plan.kept.insert(child)
                case .file:
                    plan.files.append((child, remote, item))
                    plan.kept.insert(child)
                case .symlink:
                    // A link to a file is copied as the file; links to folders are not followed.
                    if item.targetType == .file, item.linkBroken != true, item.linkOutside != true {
                        plan.files.append((child, remote, item))
                        plan.kept.insert(child)
                    }
                }
            }
        }
        // A folder that is listed but not walked (a dot-folder) is kept only when it exists.
        plan.kept = plan.kept.filter { place in
            plan.folders.contains(place) || plan.files.contains { $0.place == place }
                || Self.kind(local(place)) == .directory
        }
        return plan
    }

    private func refused(_ what: String) -> BrowseyClientError {
        BrowseyClientError(.decoding, "the server's manifest names \(what): nothing was changed")
    }

    // MARK: Local files

    private func local(_ place: String) -> String { place.isEmpty ? localFolder : localFolder + "/" + place }

    /// Removes what is inside the copy but not in `plan` (never following a link); how many.
    private func removeLeftovers(keeping plan: Plan) -> Int {
        var removed = 0
        var queue = [""]
        while let place = queue.popLast() {
            let path = local(place)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
            for name in names {
                let child = place.isEmpty ? name : place + "/" + name
                if child == Self.markerName || child == Self.markerName + ".new" { continue }
                if !plan.kept.contains(child) {
                    removed += remove(local(child))
                } else if Self.kind(local(child)) == .directory {
                    queue.append(child)
                }
            }
        }
        return removed
    }

    /// Removes `path` (a folder with everything in it; a link itself), only inside the copy.
    private func remove(_ path: String) -> Int {
        guard path.hasPrefix(localFolder + "/") else { return 0 }
        return (try? FileManager.default.removeItem(atPath: path)) == nil ? 0 : 1
    }

    enum Kind { case none, file, directory, other }

    /// What is at `path`, links not followed.
    static func kind(_ path: String) -> Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .none }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// Whether the local file already is the server's: a plain file of the same size and date
    /// (to the millisecond, as the manifest gives it).
    static func isCurrent(_ path: String, _ item: ListItem) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
            Int64(status.st_size) == item.size
        else { return false }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000 == milliseconds(item.modified)
    }

    /// Dates a downloaded file as the server does, to the millisecond.
    static func setModified(_ path: String, to date: Date) {
        let milliseconds = milliseconds(date)
        let time = timespec(
            tv_sec: time_t(milliseconds.floorDivided(by: 1000)),
            tv_nsec: Int((milliseconds - milliseconds.floorDivided(by: 1000) * 1000) * 1_000_000))
        var times = [time, time]
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// Whether a name from the server may be a local name: one component, never `.`, `..`,
    /// empty, or holding `/` or NUL. A server could otherwise send `..` and have a copy of its
    /// folder written outside the folder it was asked into.
    public static func isSafeName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    static func normalized(_ path: String) -> String {
        let components = path.split(separator: "/")
        return "/" + components.joined(separator: "/")
    }

    // MARK: The marker

    private func writeMarker(revision: String) {
        let text = "browsey-sync 1\nsource \(source)\nrevision \(revision)\n"
        LocalFile.setText(text, at: markerPath + ".new")
        _ = rename(markerPath + ".new", markerPath)
    }

    private static func readMarker(at path: String) -> (source: String, revision: String)? {
        guard Self.kind(path) == .file, let text = LocalFile.text(path) else { return nil }
        let lines = text.split(separator: "\n")
        guard lines.first == "browsey-sync 1" else { return nil }
        var source = ""
        var revision = ""
        for line in lines.dropFirst() {
            if line.hasPrefix("source ") { source = String(line.dropFirst(7)) }
            if line.hasPrefix("revision ") { revision = String(line.dropFirst(9)) }
        }
        return (source, revision)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
