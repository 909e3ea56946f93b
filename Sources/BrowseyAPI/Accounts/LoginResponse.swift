#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The answer to a sign-in: the session's bearer token (for apps and the command line; the web
/// UI gets the same session as an HttpOnly cookie), who signed in and when the session ends.
public struct LoginResponse: Codable, Sendable, Hashable {
    /// The account's name.
    public var username: String
    /// The session's token: send it as `Authorization: Bearer TOKEN`.
    public var token: String
    /// When the session ends.
    public var expires: Date
    /// Whether the account may do everything everywhere.
    public var admin: Bool

    /// Makes a sign-in answer.
    public init(username: String, token: String, expires: Date, admin: Bool) {
        self.username = username
        self.token = token
        self.expires = expires
        self.admin = admin
    }
}
