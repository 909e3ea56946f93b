import BrowseyAPI
import FileTree
import Hummingbird

extension BrowseyRoutes {
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
            if error.code == .notADirectory { throw APIError(.badRequest, "Path is not a directory", code: "notADirectory") }
            throw APIError.from(error, notFound: "Directory not found")
        }
        let buffer = ListingJSON.encode(
            path: folder.relative, absolutePath: folder.absolute, listing: listing, safePath: safePath)
        if let generation { listingCache?.store(buffer, for: key, since: generation) }
        return JSONBody.response(buffer: buffer)
    }

    /// `GET /api/stat?path=`: one item's metadata (a symlink is described as its target).
    func stat(_ request: Request) throws -> Response {
        let target = try resolve(request, required: true, notFound: "File not found")
        let entry: FileEntry
        do {
            if target.relative == "/" {
                entry = try DirectoryReader().entry(at: target.absolute)
            } else {
                do {
                    let (folder, name) = try safePath.parent(forWriting: target)
                    entry = try DirectoryReader().entry(named: name, in: folder)
                } catch where error.code == .outsideRoot && safePath.allowsSymlinks {
                    entry = try DirectoryReader().entry(at: target.absolute)
                }
            }
        } catch {
            throw APIError.from(error, notFound: "File not found")
        }
        let status = entry.symlink?.targetStatus ?? entry.status
        let type = entry.symlink?.targetType ?? entry.type
        let modified = status?.modified.date ?? .distantPast
        let answer = StatResponse(
            name: entry.name, type: Self.itemType(type), size: status?.size ?? 0,
            modified: modified, created: (status?.created ?? status?.statusChanged)?.date ?? modified,
            extension: type == .directory ? nil : entry.pathExtension, absolutePath: target.absolute,
            path: target.relative,
            mimeType: type == .directory ? nil : ContentTypeRegistry.standard.type(forFileName: entry.name).preferredMIMEType
                ?? "application/octet-stream",
            permissions: status?.permissions.description)
        return JSONBody.response(answer)
    }

    /// `GET /api/health`.
    func health() -> Response {
        JSONBody.response(
            HealthResponse(
                readonly: configuration.readOnly, host: HostInfo.current(since: startedAt), auth: configuration.token != nil,
                hidden: configuration.showsHidden))
    }
}
