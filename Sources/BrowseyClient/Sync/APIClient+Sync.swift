public import BrowseyAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension APIClient {
    /// `GET /api/sync/manifest`: `folder` and everything below it, or only
    /// `{"path","revision","unchanged":true}` when `revision` (from an earlier answer) still holds.
    public func syncManifest(
        _ folder: String = "/", revision: String? = nil
    ) async throws(BrowseyClientError) -> SyncManifestResponse {
        // A manifest may be large (the server allows 96 MiB by default).
        try await json(
            SyncManifestResponse.self, "GET", "/api/sync/manifest",
            query: [("path", folder), ("revision", revision)],
            limit: 128 << 20)
    }

    /// Pins `folder` into the local folder `localFolder`: a ``FolderMirror`` that keeps it an
    /// exact copy each time it syncs. The local folder must be missing, empty, or an earlier
    /// mirror of the same folder (it holds the marker ``FolderMirror/markerName``); anything
    /// else is refused, so that a sync never deletes files it did not put there.
    public func pin(_ folder: String, into localFolder: String) throws(BrowseyClientError) -> FolderMirror {
        try FolderMirror(client: self, folder: folder, localFolder: localFolder)
    }
}
