/// How large one sync manifest may grow: past either bound `GET /api/sync/manifest` answers
/// 413 `tooLarge` instead of walking on (a client pins a smaller folder).
public struct SyncManifestLimits: Sendable, Hashable {
    /// The most entries, over every folder of the manifest (250,000 by default).
    public var entries: Int
    /// The most bytes of the folders' JSON (96 MiB by default).
    public var bytes: Int

    /// Limits of `entries` entries and `bytes` bytes.
    public init(entries: Int = 250_000, bytes: Int = 96 << 20) {
        self.entries = entries
        self.bytes = bytes
    }
}
