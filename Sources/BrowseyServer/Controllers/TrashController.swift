import BrowseyAPI
import FileTree
import Hummingbird

/// What deletes put aside: `GET /api/trash` lists it, `POST /api/restore` puts an item back,
/// `POST /api/trash/empty` deletes entries for good.
struct TrashController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// Where deletes go; `nil` when they are for good (`--no-trash`).
    let trash: Trash?
    var audit: AuditLog?

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.post("/api/restore") { request, context in try await restore(request, context: context) }
        group.get("/api/trash") { request, context in try trashItems(request, context: context) }
        group.post("/api/trash/empty") { request, context in try await empty(request, context: context) }
    }

    /// `POST /api/restore {id}`: a deleted item back where it was; 409 when the place is taken.
    func restore(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(RestoreRequest.self, from: request)
        guard let trash else { throw APIError(.notFound, "Trash is off", code: .noTrash) }
        let safePath = self.safePath
        let access = context.access
        let restored = try await offThread { () throws(FileTreeError) in
            try trash.restore(id: body.id) { item throws(FileTreeError) in
                // The original place, under today's rules (the paths' and the user's: only what
                // they may write there comes back); its missing folders are made again.
                guard let place = try? safePath.resolveForWriting(item.originalPath),
                    access.rights(at: place.relative).contains(.write)
                else {
                    throw FileTreeError(
                        .permissionDenied, "The original place is not allowed", path: item.originalPath)
                }
                try Self.makeMissingFolders(of: place, safePath: safePath)
                return try safePath.parent(forWriting: place)
            }
        }
        record("restore", relative(restored.restoredAt), context, detail: "trash \(body.id)")
        return JSONBody.response(ChangeResponse(newPath: relative(restored.restoredAt)))
    }

    /// `GET /api/trash`: the deleted items that can be restored, newest first.
    func trashItems(_ request: Request, context: FileServerContext) throws -> Response {
        try requireWritable(request, context, needsJSON: false)
        // Only what the user may write where it was: a trash is no window onto other folders.
        let items = visibleItems(context)
        let retention = trash.map {
            TrashRetention(days: $0.maximumAge / (24 * 3600), maximumBytes: $0.maximumBytes)
        }
        return JSONBody.response(TrashResponse(items: items, retention: retention))
    }

    /// The trash's entries the request's user may write where they were.
    private func visibleItems(_ context: FileServerContext) -> [TrashItem] {
        (trash?.items() ?? []).filter { context.access.rights(at: $0.originalPath).contains(.write) }
    }

    /// `POST /api/trash/empty {ids?}`: the named entries, or all of them, deleted for good; only
    /// among those the user sees (someone else's deletes are not theirs to empty).
    func empty(_ request: Request, context: FileServerContext) async throws -> Response {
        try requireWritable(request, context)
        let body = try await decode(EmptyTrashRequest.self, from: request)
        guard let trash else { throw APIError(.notFound, "Trash is off", code: .noTrash) }
        var ids = visibleItems(context).map(\.id)
        if let asked = body.ids.map(Set.init) { ids = ids.filter(asked.contains) }
        let chosen = ids
        let removed = try await offThread { trash.remove(ids: chosen) }
        return JSONBody.response(EmptyTrashResponse(removed: removed))
    }
}
