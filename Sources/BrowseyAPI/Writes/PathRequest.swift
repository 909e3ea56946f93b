/// A write about one path: `POST /api/delete` and `POST /api/mkdir`.
public struct PathRequest: Codable, Sendable, Hashable {
    /// The item (for `mkdir`, the folder to create).
    public var path: String

    /// Makes a request about one path.
    public init(path: String) { self.path = path }
}
