#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The people a server knows and what they may do: what `browsey serve --config FILE` reads.
///
/// The file is JSON, read with the JSON decoder the server already links (FoundationEssentials);
/// see ``AccountsFile`` for its shape and Docs/Accounts.md for a complete example.
public struct Accounts: Sendable {
    /// One person who can sign in.
    public struct Account: Sendable, Hashable {
        /// The name they sign in with.
        public let name: String
        /// Their password's hash.
        public let password: PasswordHash
        /// Whether they may do everything everywhere, and see every share.
        public let isAdministrator: Bool

        /// An account.
        public init(name: String, password: PasswordHash, isAdministrator: Bool = false) {
            self.name = name
            self.password = password
            self.isAdministrator = isAdministrator
        }
    }

    /// The accounts by name.
    public let users: [String: Account]
    /// The folder rules.
    public let policy: AccessPolicy
    /// How long a session lasts after signing in.
    public var sessionLifetime: Duration = .seconds(30 * 24 * 3600)

    /// Accounts with `policy` (its administrators are taken from the accounts).
    public init(users: [Account], rules: [AccessPolicy.Rule]) {
        self.users = Dictionary(users.map { ($0.name, $0) }) { first, _ in first }
        policy = AccessPolicy(
            rules: rules, administrators: Set(users.filter(\.isAdministrator).map(\.name)))
    }

    /// Reads an accounts file's bytes; the error says what is wrong and where.
    public init(json bytes: [UInt8]) throws(ServerSetupError) {
        let file: AccountsFile
        do {
            file = try JSONDecoder().decode(AccountsFile.self, from: Data(bytes))
        } catch {
            throw ServerSetupError(
                .accounts, message: "The accounts file is not valid JSON of the expected shape: \(error)")
        }
        var users: [Account] = []
        for (name, user) in file.users.sorted(by: { $0.key < $1.key }) {
            guard Self.isValidName(name) else {
                throw ServerSetupError(
                    .accounts, message: "\"\(name)\" cannot be a user name (letters, digits, . _ - only)")
            }
            guard let hash = PasswordHash(user.password) else {
                throw ServerSetupError(
                    .accounts,
                    message: "The password of \(name) is not a hash: write one with `browsey passwd \(name)`")
            }
            users.append(Account(name: name, password: hash, isAdministrator: user.admin ?? false))
        }
        var rules: [AccessPolicy.Rule] = []
        for (folder, grants) in file.folders ?? [:] {
            var components: [String] = []
            for part in folder.replacing("\\", with: "/").split(separator: "/") where part != "." {
                guard part != ".." else {
                    throw ServerSetupError(.accounts, message: "The folder \"\(folder)\" may not contain ..")
                }
                components.append(String(part))
            }
            var granted: [AccessPolicy.Grantee: Rights] = [:]
            for (who, named) in grants {
                guard let rights = Rights(named: named) else {
                    throw ServerSetupError(
                        .accounts,
                        message:
                            "\"\(named)\" (for \(who) in \(folder)) is not read, write, upload, admin or none"
                    )
                }
                let grantee: AccessPolicy.Grantee
                switch who {
                case "*": grantee = .anyone
                case "@users": grantee = .signedIn
                default:
                    guard file.users[who] != nil else {
                        throw ServerSetupError(
                            .accounts, message: "\(folder) names \(who), who has no account")
                    }
                    grantee = .user(who)
                }
                granted[grantee, default: []].formUnion(rights)
            }
            rules.append(AccessPolicy.Rule(components: components, grants: granted))
        }
        let depths = rules.map { $0.components }
        guard Set(depths).count == depths.count else {
            throw ServerSetupError(.accounts, message: "Two rules name the same folder")
        }
        self.init(users: users, rules: rules)
        if let days = file.sessionDays {
            guard days > 0, days <= 3650 else {
                throw ServerSetupError(.accounts, message: "sessionDays must be between 0 and 3650")
            }
            sessionLifetime = .seconds(Int64(days * 24 * 3600))
        }
    }

    /// Whether `name` can be an account's name: what a cookie, a log line and a URL carry as it is.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            } && name.first != "@"
    }
}
