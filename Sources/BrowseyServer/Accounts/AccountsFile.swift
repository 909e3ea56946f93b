/// The accounts file as it is written: JSON with `users` (each a password hash written by
/// `browsey passwd`, and `admin` for those who may do everything), `folders` (a rule per folder:
/// who gets which rights there) and `sessionDays`.
///
/// ```json
/// {
///   "users": {
///     "alice": { "password": "scrypt$15$8$1$…", "admin": true },
///     "bob": { "password": "scrypt$15$8$1$…" }
///   },
///   "folders": {
///     "/": { "@users": "read" },
///     "/Public": { "*": "read" },
///     "/Team": { "bob": "write" }
///   },
///   "sessionDays": 30
/// }
/// ```
public struct AccountsFile: Codable, Sendable {
    /// One user's entry.
    public struct User: Codable, Sendable {
        /// The password's hash (``PasswordHash``).
        public var password: String
        /// Whether the user may do everything everywhere.
        public var admin: Bool?

        /// An entry.
        public init(password: String, admin: Bool? = nil) {
            self.password = password
            self.admin = admin
        }
    }

    /// The users by name.
    public var users: [String: User]
    /// Per folder, per grantee (a user's name, `@users` or `*`), the rights' names.
    public var folders: [String: [String: String]]?
    /// How many days a session lasts (30 unless given).
    public var sessionDays: Double?

    /// A file.
    public init(
        users: [String: User] = [:], folders: [String: [String: String]]? = nil, sessionDays: Double? = nil
    ) {
        self.users = users
        self.folders = folders
        self.sessionDays = sessionDays
    }
}
