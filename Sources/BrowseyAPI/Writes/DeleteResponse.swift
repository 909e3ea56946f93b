/// The answer to `POST /api/delete`.
public struct DeleteResponse: Codable, Sendable, Hashable {
    /// Always `true`.
    public var ok: Bool
    /// The trash entry that holds the item, for `POST /api/restore` (additive); absent when the
    /// server deletes for good (`--no-trash`).
    public var trashId: String?

    /// Makes the answer.
    public init(ok: Bool = true, trashId: String? = nil) {
        self.ok = ok
        self.trashId = trashId
    }
}
