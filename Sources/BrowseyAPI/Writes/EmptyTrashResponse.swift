/// `POST /api/trash/empty`'s answer: how many entries were deleted for good.
public struct EmptyTrashResponse: Codable, Sendable, Hashable {
    /// Always true in a 200.
    public var ok: Bool
    /// The entries removed.
    public var removed: Int

    /// Makes the answer.
    public init(ok: Bool = true, removed: Int) {
        self.ok = ok
        self.removed = removed
    }
}
