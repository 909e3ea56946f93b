/// One event of `GET /api/events`: something under the watched folder changed.
///
/// ```text
/// id: k3f9.12
/// event: created
/// data: {"type":"created","path":"/docs/new.md","item":{"name":"new.md",…}}
/// ```
public struct ChangeEvent: Codable, Sendable, Hashable {
    /// `created`, `deleted`, `modified`, `renamed`, or `reset` (reload: events were missed).
    public var type: String
    /// Where the entry is (was, when deleted), relative to the root.
    public var path: String?
    /// Where a renamed entry was.
    public var from: String?
    /// The entry as it is now (as it was, when deleted), in the shape of a listing's item.
    public var item: ListItem?

    /// Makes an event.
    public init(type: String, path: String? = nil, from: String? = nil, item: ListItem? = nil) {
        self.type = type
        self.path = path
        self.from = from
        self.item = item
    }
}
