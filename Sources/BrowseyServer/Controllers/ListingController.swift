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

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/list") { request, _ in try await list(request) }
    }

    /// `GET /api/list?path=[&hidden=1]`: a folder's entries, folders first, then names.
    func list(_ request: Request) async throws -> Response {
        let folder = try resolve(request, required: false, notFound: "Directory not found")
        let wantsHidden = configuration.showsHidden && request.uri.queryParameters.get("hidden") == "1"
        let key = ListingCache.Key(folder: folder.absolute, hidden: wantsHidden)
        let (cached, generation) = listingCache?.lookup(key) ?? (nil, nil)
        if let cached { return JSONBody.response(buffer: cached) }
        let filter = EntryFilter(
            includesHidden: wantsHidden, excludedNames: safePath.ignored)
        let reader = DirectoryReader(filter: filter, order: .browsey)
        let listing: FolderListing
        do {
            listing = try await reader.listing(in: safePath.folder(folder))
        } catch {
            if error.code == .notADirectory {
                throw APIError(.badRequest, "Path is not a directory", code: .notADirectory)
            }
            throw APIError.from(error, notFound: "Directory not found")
        }
        let buffer = ListingJSON.encode(
            path: folder.relative, absolutePath: folder.absolute, listing: listing,
            links: links(of: listing), thumbnails: thumbnails)
        if let generation { listingCache?.store(buffer, for: key, since: generation) }
        return JSONBody.response(buffer: buffer)
    }

    /// The listing's links, decided before encoding: each read again as a full entry (for its
    /// target) and made the contract's item under the path rules (a target outside the root is
    /// not revealed). A link gone meanwhile is left out (the encoder writes it as broken).
    private func links(of listing: FolderListing) -> [Int: ListItem] {
        var links: [Int: ListItem] = [:]
        for (index, item) in listing.items.enumerated() where item.type == .symlink {
            if let entry = try? listing.entry(of: item) { links[index] = ListItem(entry, under: safePath) }
        }
        return links
    }
}
