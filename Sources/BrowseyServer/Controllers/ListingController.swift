import BrowseyAPI
import FileTree
import Hummingbird

/// `GET /api/list`: a folder's entries, from the listing cache when it can vouch for them.
struct ListingController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// Encoded listings kept until the watcher says a folder changed; `nil` reads every listing.
    let listingCache: ListingCache?
    /// The extensions whose files are marked `"thumbnail": true`.
    var thumbnails = ThumbnailExtensions.none
    /// Whether answers name where things are on the server's disk (`absolutePath`). Through a
    /// share link they do not: `absolutePath` repeats `path`, and links are left out.
    var showsFilesystemPaths = true

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/list") { request, context in try await list(request, context: context) }
    }

    /// `GET /api/list?path=[&hidden=1]`: a folder's entries, folders first, then names, tagged
    /// with a digest of the answer (``BodyTag``): 304 when the client has it.
    func list(_ request: Request, context: FileServerContext) async throws -> Response {
        let folder = try resolve(
            request, context, required: false, notFound: "Directory not found", need: .see)
        let wantsHidden = includesHidden(request)
        let key = ListingCache.Key(folder: folder.absolute, hidden: wantsHidden)
        // What one reader may see is theirs alone: with accounts a listing is read fresh and
        // filtered (a link may lead where other rules hold), never cached.
        let access = context.access
        let filters = access.dependsOnWhoAsks
        let (cached, generation) = filters ? (nil, nil) : listingCache?.lookup(key) ?? (nil, nil)
        if let cached { return BodyTag.response(cached.buffer, tag: cached.tag, to: request) }
        let filter = EntryFilter(
            includesHidden: wantsHidden, excludedNames: safePath.ignored)
        var reader = DirectoryReader(filter: filter, order: .browsey)
        reader.linkSortsAsFolder = safePath.linkSortsAsFolder
        var listing: FolderListing
        do {
            listing = try await reader.listing(in: safePath.folder(folder))
        } catch {
            throw APIError.fromFolder(error)
        }
        if filters { Self.keepVisible(&listing, in: folder, access: access, safePath: safePath) }
        if !showsFilesystemPaths { listing.removeItems { $0.type == .symlink } }
        let buffer = ListingJSON.encode(
            path: folder.relative, absolutePath: showsFilesystemPaths ? folder.absolute : folder.relative,
            listing: listing, links: Self.links(of: listing, safePath: safePath), thumbnails: thumbnails)
        let tag = BodyTag.of(buffer, salt: wantsHidden ? "hidden" : "")
        if let generation { listingCache?.store(buffer, tag: tag, for: key, since: generation) }
        return BodyTag.response(buffer, tag: tag, to: request)
    }

    /// Leaves in a listing of `folder` only what this request may see (one reader's listing,
    /// on a server with accounts or through a share): an item must be seen at its own path, and
    /// a link also where it leads. With `readable`, everything but folders must also be
    /// readable (what a sync manifest lists is what its client downloads).
    static func keepVisible(
        _ listing: inout FolderListing, in folder: SafePath.Resolved, access: RequestAccess,
        safePath: SafePath, readable: Bool = false
    ) {
        let whole = listing
        listing.removeItems { item in
            let child = SafePath.Resolved(
                absolute: whole.path(of: item), relative: Paths.join(folder.relative, whole.name(of: item)))
            guard access.maySee(child.relative) else { return true }
            if readable, item.type != .directory, !access.mayRead(child.relative) { return true }
            // A link is shown only where the place it leads to may be seen too.
            guard let real = safePath.realRelative(of: child), real != child.relative else {
                return false
            }
            return !access.maySee(real)
        }
    }

    /// The listing's links, decided before encoding: each read again as a full entry (for its
    /// target) and made the contract's item under the path rules (a target outside the root is
    /// not revealed). A link gone meanwhile is left out (the encoder writes it as broken).
    static func links(of listing: FolderListing, safePath: SafePath) -> [Int: ListItem] {
        var links: [Int: ListItem] = [:]
        for (index, item) in listing.items.enumerated() where item.type == .symlink {
            if let entry = try? listing.entry(of: item) { links[index] = ListItem(entry, under: safePath) }
        }
        return links
    }
}
