import BrowseyAPI
import Crypto
import FileTree
import NIOCore

/// One walk of a folder for `GET /api/sync/manifest`: every folder below it, breadth-first, each
/// as the `/api/list` answer of that folder (the same encoder), and the revision that covers
/// them all.
///
/// The walk opens each folder from the one above it by descriptor, never following a link
/// (`O_NOFOLLOW`), so it stays inside the folder it started in whatever is renamed meanwhile;
/// links are listed, never descended into, and neither are folders whose names start with a
/// dot. It is strict: anything that cannot be read (a folder or entry gone mid-walk, a folder
/// that cannot be opened, a link that cannot be read) fails the whole manifest, since a client
/// mirroring a partial answer would delete what it missed.
struct SyncManifest {
    /// The folders' JSON, comma-separated, in walk order.
    let directories: ByteBuffer
    /// 64 lowercase hex digits: SHA-256 of `{"showHidden":…,"directories":[…]}`.
    let revision: String
    /// Whether any folder lists a link (whose target may change anywhere).
    let listsLinks: Bool

    /// Walks `start` (already resolved and allowed) and builds its manifest.
    ///
    /// - Parameters:
    ///   - visible: leaves in a folder's listing only what the reader may have (accounts),
    ///     `nil` when everyone reads the same.
    static func build(
        start: SafePath.Resolved, safePath: SafePath, showsHidden: Bool, limits: SyncManifestLimits,
        thumbnails: ThumbnailExtensions,
        visible: (@Sendable (inout FolderListing, SafePath.Resolved) -> Void)?
    ) throws(APIError) -> SyncManifest {
        var reader = DirectoryReader(
            filter: EntryFilter(includesHidden: showsHidden, excludedNames: safePath.ignored), order: .browsey
        )
        reader.linkSortsAsFolder = safePath.linkSortsAsFolder
        let top: OpenFolder
        do {
            // The requested folder itself is followed when it is a link (inside the root).
            top = try safePath.folder(start)
        } catch {
            // A name the file system cannot hold (ENAMETOOLONG) names nothing: 404, as in a listing.
            throw APIError.fromFolder(error)
        }
        var directories = ByteBuffer()
        var hash = SHA256()
        hash.update(data: Array("{\"showHidden\":\(showsHidden),\"directories\":[".utf8))
        var entries = 0
        var listsLinks = false
        // Each queued folder is the names leading to it from `top`, opened one by one when its
        // turn comes (so a wide tree does not hold a descriptor per queued folder).
        var queue: [(names: [String], place: SafePath.Resolved)] = [([], start)]
        var next = 0
        while next < queue.count {
            let (names, place) = queue[next]
            queue[next] = ([], place)
            next += 1
            var folder = top
            do {
                for name in names { folder = try folder.folder(named: name) }
            } catch {
                throw failure(error)
            }
            var listing: FolderListing
            do {
                listing = try reader.listing(in: folder)
            } catch {
                throw failure(error)
            }
            if let error = listing.readError { throw failure(error) }
            visible?(&listing, place)
            for item in listing.items where item.errorNumber != 0 {
                throw failure(FileTreeError(errno: item.errorNumber, path: listing.path(of: item)))
            }
            entries += listing.items.count
            guard entries <= limits.entries else {
                throw tooLarge("more than \(limits.entries) entries")
            }
            var links: [Int: ListItem] = [:]
            for (index, item) in listing.items.enumerated() {
                let name = listing.name(of: item)
                if item.type == .symlink {
                    listsLinks = true
                    do {
                        links[index] = ListItem(try listing.entry(of: item), under: safePath)
                    } catch {
                        throw failure(error)
                    }
                } else if item.type == .directory, !name.hasPrefix(".") {
                    let child = SafePath.Resolved(
                        absolute: Paths.join(place.absolute, name), relative: Paths.join(place.relative, name)
                    )
                    queue.append((names + [name], child))
                }
            }
            var json = ListingJSON.encode(
                path: place.relative, absolutePath: place.absolute, listing: listing, links: links,
                thumbnails: thumbnails)
            guard directories.readableBytes + json.readableBytes < limits.bytes else {
                throw tooLarge("more than \(limits.bytes) bytes")
            }
            if directories.readableBytes > 0 {
                directories.writeInteger(UInt8(ascii: ","))
                hash.update(data: [UInt8(ascii: ",")])
            }
            json.withUnsafeReadableBytes { hash.update(bufferPointer: $0) }
            directories.writeBuffer(&json)
        }
        hash.update(data: Array("]}".utf8))
        return SyncManifest(
            directories: directories, revision: Hex.encode(hash.finalize()), listsLinks: listsLinks)
    }

    /// The full answer: `{"directories":[…],"path":…,"revision":…,"showHidden":…,"unchanged":false}`.
    func body(path: String, showsHidden: Bool) -> ByteBuffer {
        var head = JSONWriter(capacity: 32)
        head.raw("{")
        head.key("directories")
        head.raw("[")
        var tail = JSONWriter(capacity: 160 + path.utf8.count)
        tail.raw("],")
        tail.key("path")
        tail.string(path)
        tail.raw(",")
        tail.key("revision")
        tail.string(revision)
        tail.raw(",")
        tail.key("showHidden")
        tail.bool(showsHidden)
        tail.raw(",")
        tail.key("unchanged")
        tail.bool(false)
        tail.raw("}")
        var buffer = ByteBuffer()
        buffer.reserveCapacity(directories.readableBytes + head.count + tail.count)
        head.withBytes { _ = buffer.writeBytes($0) }
        buffer.writeImmutableBuffer(directories)
        tail.withBytes { _ = buffer.writeBytes($0) }
        return buffer
    }

    /// The answer when the client's revision still holds: `{"path":…,"revision":…,"unchanged":true}`.
    static func unchangedBody(path: String, revision: String) -> ByteBuffer {
        var json = JSONWriter(capacity: 128 + path.utf8.count)
        json.raw("{")
        json.key("path")
        json.string(path)
        json.raw(",")
        json.key("revision")
        json.string(revision)
        json.raw(",")
        json.key("unchanged")
        json.bool(true)
        json.raw("}")
        var buffer = ByteBuffer()
        json.withBytes { _ = buffer.writeBytes($0) }
        return buffer
    }

    /// The contract's strict answers: anything gone is 404, anything unreadable 403, anything
    /// else (a folder turned into a file or a link mid-walk) 500.
    private static func failure(_ error: FileTreeError) -> APIError {
        switch error.code {
        case .notFound: APIError(.notFound, "Directory not found", code: .notFound)
        case .permissionDenied: APIError(.forbidden, "Access denied", code: .permissionDenied)
        case .outsideRoot: .invalidPath
        default: APIError(.internalServerError, "Failed to build sync manifest", code: .internalError)
        }
    }

    private static func tooLarge(_ what: String) -> APIError {
        APIError(
            .contentTooLarge, "Sync manifest too large: \(what); pin a smaller folder", code: .tooLarge)
    }
}
