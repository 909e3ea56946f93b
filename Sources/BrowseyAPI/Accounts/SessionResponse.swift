/// Who a request is from, and what that means at the root: `GET /api/session`.
public struct SessionResponse: Codable, Sendable, Hashable {
    /// Whether the server has accounts (`--config`); without them nobody signs in.
    public var accounts: Bool
    /// The signed-in account, `nil` for nobody.
    public var username: String?
    /// Whether that account may do everything everywhere.
    public var admin: Bool
    /// What the request may do at the root: some of `read`, `write`, `upload`, `admin`.
    public var rights: [String]
    /// On a server with one access token (`--token`), the token itself: only to a request that
    /// holds it and asks (`include=token`), for a link that carries it (the web UI's "Copy link
    /// with access").
    public var token: String?

    /// Makes an answer.
    public init(accounts: Bool, username: String?, admin: Bool, rights: [String], token: String? = nil) {
        self.accounts = accounts
        self.username = username
        self.admin = admin
        self.rights = rights
        self.token = token
    }
}
