/// `POST /api/restore`: puts a deleted item back where it was.
public struct RestoreRequest: Codable, Sendable, Hashable {
    /// The trash entry, from the delete's `trashId` or `GET /api/trash`.
    public var id: String

    /// Makes a restore request.
    public init(id: String) { self.id = id }
}
