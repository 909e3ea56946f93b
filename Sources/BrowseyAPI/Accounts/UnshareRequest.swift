/// Revoking a share link: `POST /api/unshare`.
public struct UnshareRequest: Codable, Sendable, Hashable {
    /// The share's id.
    public var id: String

    /// Makes the request.
    public init(id: String) { self.id = id }
}
