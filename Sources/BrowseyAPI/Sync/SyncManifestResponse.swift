/// `GET /api/sync/manifest`: a folder and everything below it, breadth-first, each folder as
/// `/api/list` answers it; or, when the client's revision still holds, only ``path``,
/// ``revision`` and ``unchanged``.
public struct SyncManifestResponse: Codable, Sendable, Hashable {
    /// The folder asked for, relative to the served root, with a leading `/`.
    public var path: String
    /// 64 lowercase hex digits that change whenever anything listed changes; opaque, echoed back.
    public var revision: String
    /// Whether the client's revision still holds (then nothing else is sent).
    public var unchanged: Bool
    /// Whether the server lists hidden names (`--hidden`); `nil` when unchanged.
    public var showHidden: Bool?
    /// The folder and every folder below it, breadth-first; `nil` when unchanged.
    public var directories: [ListResponse]?

    /// Makes a manifest.
    public init(
        path: String, revision: String, unchanged: Bool, showHidden: Bool? = nil,
        directories: [ListResponse]? = nil
    ) {
        self.path = path
        self.revision = revision
        self.unchanged = unchanged
        self.showHidden = showHidden
        self.directories = directories
    }
}
