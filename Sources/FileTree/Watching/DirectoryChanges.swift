/// One coalesced batch of changes from a ``DirectoryWatcher``.
public struct DirectoryChanges: Sendable, Hashable {
    /// The absolute paths that were created, removed, renamed (both names) or modified, in
    /// byte order, each once. A folder's own path stands for "something inside changed" when
    /// the system cannot say what (kqueue, rescans).
    public var paths: [String]
    /// Whether changes may have been missed (the kernel's queue overflowed, or a consumer was
    /// too slow): read the tree again instead of trusting ``paths``.
    public var needsRescan: Bool
    /// How many changes the watcher had reported when it delivered this batch (see
    /// ``DirectoryWatcher/changesReported``): every change up to that count is in this batch or
    /// an earlier one.
    public var sequence: UInt64

    /// Makes a batch.
    public init(paths: [String], needsRescan: Bool = false, sequence: UInt64 = 0) {
        self.paths = paths
        self.needsRescan = needsRescan
        self.sequence = sequence
    }
}
