/// Who sent a request, as far as the server can tell.
public enum RequestIdentity: Sendable, Hashable {
    /// The server asks for no token, or (with accounts) nobody signed in.
    case anyone
    /// The request proved it holds the server's token (`--auth`).
    case tokenHolder
    /// The request carries a live session of this account (`--config`).
    case user(String)

    /// The account's name, `nil` unless someone signed in.
    public var user: String? {
        if case .user(let name) = self { return name }
        return nil
    }
}
