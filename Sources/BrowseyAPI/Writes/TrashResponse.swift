/// `GET /api/trash`: what can be restored, newest first.
public struct TrashResponse: Codable, Sendable, Hashable {
    /// The entries.
    public var items: [TrashItem]
    /// How long entries are kept; `nil` when deletes are for good (`--no-trash`).
    public var retention: TrashRetention?

    /// Makes the answer.
    public init(items: [TrashItem], retention: TrashRetention? = nil) {
        self.items = items
        self.retention = retention
    }
}
