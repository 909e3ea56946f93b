/// The answer to `POST /api/git/revert`.
public struct GitRevertResponse: Codable, Sendable, Hashable {
    /// Always `true`.
    public var ok: Bool
    /// The trash entries holding what the revert replaced or removed, for `POST /api/restore`
    /// (additive); empty when the server deletes for good.
    public var trashIds: [String]

    /// Makes the answer.
    public init(ok: Bool = true, trashIds: [String] = []) {
        self.ok = ok
        self.trashIds = trashIds
    }
}
