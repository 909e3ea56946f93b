import BrowseyAPI
import FileTree
import Hummingbird
import NIOPosix

/// `GET /api/sync/manifest`: a folder and everything below it in one answer, for clients that
/// keep an offline copy, and a revision that tells them cheaply that nothing changed.
struct SyncController: ServedFolderRoutes {
    let configuration: ServerConfiguration
    let safePath: SafePath
    /// Revisions kept while the watcher says nothing changed; `nil` walks for every request.
    let revisions: ManifestRevisions?
    /// The extensions whose files are marked `"thumbnail": true` (as in `/api/list`).
    var thumbnails = ThumbnailExtensions.none

    func addRoutes(to group: RouterGroup<FileServerContext>) {
        group.get("/api/sync/manifest") { request, context in try await manifest(request, context: context) }
    }

    /// `GET /api/sync/manifest?path=[&revision=]`: the whole manifest, or
    /// `{"path","revision","unchanged":true}` when `revision` is still the current one.
    func manifest(_ request: Request, context: FileServerContext) async throws -> Response {
        let folder = try resolve(
            request, context, required: false, notFound: "Directory not found", need: .see)
        let asked = request.uri.queryParameters.get("revision").map { String($0) }
        let access = context.access
        // What one reader may have is theirs alone: with accounts every manifest is walked.
        let filters = access.dependsOnWhoAsks
        // Kept by the folder's real place, as the watcher names what changes there.
        let key =
            filters
            ? nil
            : safePath.realRelative(of: folder).map { real in
                real == "/" ? configuration.root : Paths.join(configuration.root, real.dropFirst())
            }
        var generation: UInt64?
        if let key, let revisions {
            let (kept, since) = revisions.lookup(key)
            if let kept, kept == asked {
                return JSONBody.response(
                    buffer: SyncManifest.unchangedBody(path: folder.relative, revision: kept))
            }
            generation = since
        }
        let safePath = self.safePath
        let showsHidden = configuration.showsHidden
        let limits = configuration.syncManifestLimits
        let thumbnails = self.thumbnails
        var visible: (@Sendable (inout FolderListing, SafePath.Resolved) -> Void)?
        if filters {
            visible = { @Sendable listing, place in
                ListingController.keepVisible(
                    &listing, in: place, access: access, safePath: safePath, readable: true)
            }
        }
        let filter = visible
        let result: Result<SyncManifest, APIError> = try await NIOThreadPool.singleton.runIfActive {
            Result { () throws(APIError) in
                try SyncManifest.build(
                    start: folder, safePath: safePath, showsHidden: showsHidden, limits: limits,
                    thumbnails: thumbnails, visible: filter)
            }
        }
        let manifest = try result.get()
        // A link outside the root (allowed) may change where no watcher looks: never kept.
        if let key, let generation, !(manifest.listsLinks && safePath.allowsSymlinks) {
            revisions?.keep(
                manifest.revision, for: key, since: generation, dependsOnEverything: manifest.listsLinks)
        }
        if manifest.revision == asked {
            return JSONBody.response(
                buffer: SyncManifest.unchangedBody(path: folder.relative, revision: manifest.revision))
        }
        return JSONBody.response(buffer: manifest.body(path: folder.relative, showsHidden: showsHidden))
    }
}
