/// `POST /api/trash/empty`: deletes trash entries for good.
public struct EmptyTrashRequest: Codable, Sendable, Hashable {
    /// The entries to delete for good; `nil` for every entry.
    public var ids: [String]?

    /// Makes the request: `ids` for those entries, `nil` to empty the trash.
    public init(ids: [String]? = nil) { self.ids = ids }
}
