public import BrowseyAPI
public import FileTree
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server's trash: a deleted item is moved, whole, into a folder outside the served tree
/// and can be put back until the size or age limit purges it.
///
/// Each entry is a folder `<id>/` holding the item under its own name, and `<id>.json` describing
/// it (written first, so a crash between the two leaves a description without an item, which is
/// skipped and purged, never an item nobody knows about). Changes are serialized.
public final class Trash: Sendable {
    /// The trash folder.
    public let folder: String
    /// Past this total size, the oldest entries are purged.
    public let maximumBytes: Int64
    /// Entries older than this many seconds are purged.
    public let maximumAge: Int64
    private let lock = Mutex(())

    /// A trash in `folder` (made when first needed).
    public init(folder: String, maximumBytes: Int64, maximumAge: Int64) {
        self.folder = folder
        self.maximumBytes = maximumBytes
        self.maximumAge = maximumAge
    }

    /// Moves the item `name` of an open folder into the trash (a link is moved as the link);
    /// `originalPath` (relative to the served root) is where a restore puts it back.
    public func put(
        named name: String, in source: OpenFolder, originalPath: String
    ) throws(FileTreeError) -> TrashItem {
        try lock.withLock { _ throws(FileTreeError) in
            try makeFolders(folder)
            let entry = try DirectoryReader().entry(named: name, in: source)
            let size =
                entry.type == .directory ? Self.totalSize(of: try source.folder(named: name)) : entry.size
            let now = Date()
            let id = Self.newIdentifier(at: now)
            let item = TrashItem(
                id: id, name: entry.name, originalPath: originalPath, type: ItemType(entry.type),
                size: size, deletedAt: now)
            let description = (try? JSONEncoder.browsey().encode(item)) ?? Data()
            try FileOperations.createFile(description, at: descriptionPath(id))
            do throws(FileTreeError) {
                try FileOperations.makeFolder(
                    at: entryFolder(id), permissions: FilePermissions(rawValue: 0o700))
                try FileOperations.move(named: name, in: source, into: OpenFolder(path: entryFolder(id)))
            } catch {
                try? FileOperations.remove(entryFolder(id))
                try? FileOperations.remove(descriptionPath(id))
                throw error
            }
            purge(now: now, keeping: id)
            return item
        }
    }

    /// The entries, newest first.
    public func items() -> [TrashItem] {
        lock.withLock { _ in storedItems() }.sorted { $0.deletedAt > $1.deletedAt }
    }

    /// Puts an entry back: `destination` turns its original path into where it goes now (a
    /// folder held open inside the root and a name, or a refusal); the item is moved there
    /// without replacing anything.
    ///
    /// - Throws: `.notFound` for an unknown entry, `.alreadyExists` when the place is taken.
    public func restore(
        id: String, to destination: (TrashItem) throws(FileTreeError) -> (folder: OpenFolder, name: String)
    ) throws(FileTreeError) -> (item: TrashItem, restoredAt: String) {
        try lock.withLock { _ throws(FileTreeError) in
            guard Self.isIdentifier(id), let item = storedItem(id),
                Paths.exists(Paths.join(entryFolder(id), item.name))
            else {
                throw FileTreeError(.notFound, "No such item in the trash", path: id)
            }
            let (place, name) = try destination(item)
            try FileOperations.move(
                named: item.name, in: OpenFolder(path: entryFolder(id)), to: name, in: place)
            let target = place.path(of: name)
            try? FileOperations.remove(entryFolder(id))
            try? FileOperations.remove(descriptionPath(id))
            return (item, target)
        }
    }

    /// Deletes entries for good: those named in `ids`, or every entry when `ids` is `nil`;
    /// answers how many were removed (unknown ids are skipped).
    public func remove(ids: [String]?) -> Int {
        lock.withLock { _ in
            let chosen = ids.map(Set.init)
            var removed = 0
            for item in storedItems() where chosen?.contains(item.id) ?? true {
                try? FileOperations.remove(entryFolder(item.id))
                try? FileOperations.remove(descriptionPath(item.id))
                removed += 1
            }
            return removed
        }
    }

    /// Removes entries past the age limit, then the oldest until the size limit holds (the one
    /// just added is kept even when it alone is over), and descriptions whose item is gone.
    private func purge(now: Date, keeping fresh: String) {
        let oldestKept = now.addingTimeInterval(-Double(maximumAge))
        var total: Int64 = 0
        for item in storedItems().sorted(by: { $0.deletedAt > $1.deletedAt }) {
            let present = Paths.exists(Paths.join(entryFolder(item.id), item.name))
            let fits = item.id == fresh || (item.deletedAt >= oldestKept && total + item.size <= maximumBytes)
            if present && fits {
                total += item.size
            } else {
                try? FileOperations.remove(entryFolder(item.id))
                try? FileOperations.remove(descriptionPath(item.id))
            }
        }
    }

    private func storedItems() -> [TrashItem] {
        guard let names = try? DirectoryReader().entries(at: folder).map(\.name) else { return [] }
        return names.filter { $0.hasSuffix(".json") }.compactMap { storedItem(String($0.dropLast(5))) }
    }

    private func storedItem(_ id: String) -> TrashItem? {
        guard Self.isIdentifier(id),
            let bytes = try? Data(contentsOf: URL(fileURLWithPath: descriptionPath(id)))
        else {
            return nil
        }
        return try? JSONDecoder.browsey().decode(TrashItem.self, from: bytes)
    }

    private func entryFolder(_ id: String) -> String { Paths.join(folder, id) }
    private func descriptionPath(_ id: String) -> String { Paths.join(folder, id + ".json") }

    private func makeFolders(_ path: String) throws(FileTreeError) {
        var built = ""
        for component in path.split(separator: "/") {
            built += "/" + component
            do throws(FileTreeError) {
                try FileOperations.makeFolder(at: built, permissions: FilePermissions(rawValue: 0o700))
            } catch  where error.code == .alreadyExists {
                continue
            }
        }
    }

    /// Everything a folder holds: its files summed, links counted as themselves.
    static func totalSize(of folder: OpenFolder) -> Int64 {
        var total: Int64 = 0
        _ = try? DirectoryReader().walk(in: folder) { child, _ in
            if child.type != .directory { total += child.size }
            return .continue
        }
        return total
    }

    /// `<milliseconds>-<8 random hex digits>`: sorts by time, never guessed into a path.
    static func newIdentifier(at date: Date) -> String {
        let milliseconds = Int64(date.timeIntervalSince1970 * 1000)
        let random = String(UInt32.random(in: .min ... .max), radix: 16)
        return "\(milliseconds)-" + String(repeating: "0", count: 8 - random.count) + random
    }

    /// Whether `id` has the form of an identifier (digits, a dash, hex): nothing else reaches
    /// the file system.
    static func isIdentifier(_ id: String) -> Bool {
        let parts = id.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 20, parts[1].count == 8 else {
            return false
        }
        return parts[0].allSatisfy(\.isASCII) && parts[0].allSatisfy(\.isNumber)
            && parts[1].allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}
