/// A sign-in: `POST /api/login`.
public struct LoginRequest: Codable, Sendable, Hashable {
    /// The account's name.
    public var username: String
    /// Its password.
    public var password: String

    /// Makes a sign-in.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
