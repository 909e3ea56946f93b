/// `GET /api/shares`: the caller's share links (an administrator's: everyone's).
public struct SharesResponse: Codable, Sendable, Hashable {
    /// The shares, oldest first.
    public var shares: [ShareInfo]

    /// Makes the answer.
    public init(shares: [ShareInfo]) { self.shares = shares }
}
