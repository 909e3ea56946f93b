/// `GET /api/trash`: what can be restored, newest first.
public struct TrashResponse: Codable, Sendable, Hashable {
    /// The entries.
    public var items: [TrashItem]

    /// Makes the answer.
    public init(items: [TrashItem]) { self.items = items }
}
