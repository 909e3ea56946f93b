/// Who sent a request, as far as the server can tell.
public enum RequestIdentity: Sendable, Hashable {
    /// The server asks for no token: every request is anyone's.
    case anyone
    /// The request proved it holds the server's token (`--auth`).
    case tokenHolder
}
