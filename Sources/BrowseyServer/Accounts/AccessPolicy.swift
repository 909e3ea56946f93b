/// Who may do what where: the folder rules of the accounts file, decided for one user and one
/// path at a time.
///
/// A rule names a folder and grants rights in it to users by name, to every signed-in user
/// (`@users`) and to everyone, signed in or not (`*`). A rule covers its folder and everything
/// below; where several cover a path, the deepest one decides alone (the most specific rule
/// wins), and within it a user gets the union of what their name, `@users` and `*` grant. A path
/// no rule covers grants nothing. Server administrators (`"admin": true` on the account) may do
/// everything everywhere.
///
/// Paths compare by whole components: a rule for `/foo` never covers `/foobar`. The paths asked
/// about are the ones ``SafePath`` resolved (`/`-separated, without `.`, `..` or empty parts).
public struct AccessPolicy: Sendable {
    /// Who a grant of a rule is for.
    public enum Grantee: Hashable, Sendable {
        /// One account, by name.
        case user(String)
        /// Everyone signed in (`@users` in the file).
        case signedIn
        /// Everyone, signed in or not (`*` in the file).
        case anyone
    }

    /// One folder's rule.
    public struct Rule: Sendable {
        /// The folder, as its components below the root (empty for the root).
        public let components: [String]
        /// What each grantee may do there.
        public let grants: [Grantee: Rights]

        /// A rule for `components` granting `grants`.
        public init(components: [String], grants: [Grantee: Rights]) {
            self.components = components.map(Self.comparable)
            self.grants = grants
        }

        /// What the rule grants `user` (`nil`: not signed in).
        func rights(of user: String?) -> Rights {
            var rights = grants[.anyone] ?? []
            if let user {
                rights.formUnion(grants[.signedIn] ?? [])
                rights.formUnion(grants[.user(user)] ?? [])
            }
            return rights
        }

        /// A component as rules compare it: on Apple systems, whose disks ignore case, without
        /// case, so that `/private` is not a way around a rule for `/Private`.
        static func comparable(_ component: some StringProtocol) -> String {
            #if canImport(Darwin)
                return component.lowercased()
            #else
                return String(component)
            #endif
        }
    }

    /// The rules, deepest first.
    let rules: [Rule]
    /// The accounts that may do everything everywhere.
    let administrators: Set<String>

    /// A policy of `rules`, with `administrators` above them all.
    public init(rules: [Rule], administrators: Set<String> = []) {
        self.rules = rules.sorted { $0.components.count > $1.components.count }
        self.administrators = administrators
    }

    /// The components of a resolved path, as rules compare them.
    static func components(of path: String) -> [String] {
        path.split(separator: "/").map(Rule.comparable)
    }

    /// What `user` (`nil`: not signed in) may do at `path`.
    public func rights(of user: String?, at path: String) -> Rights {
        if let user, administrators.contains(user) { return .all }
        let parts = Self.components(of: path)
        guard let rule = rules.first(where: { parts.starts(with: $0.components) }) else { return [] }
        return rule.rights(of: user)
    }

    /// Whether `user` may see that `path` exists: they may read it, or a rule there or below it
    /// grants them something, so it is on their way there (a folder they may only pass through
    /// lists only what leads on; a drop box they may only upload to lists nothing).
    public func maySee(_ user: String?, _ path: String) -> Bool {
        if rights(of: user, at: path).contains(.read) { return true }
        let parts = Self.components(of: path)
        return rules.contains { rule in
            rule.components.count >= parts.count && rule.components.starts(with: parts)
                && !rule.rights(of: user).isEmpty
        }
    }

    /// Whether every item below `path` grants `user` exactly what `path` does: no deeper rule
    /// exists, so a listing or a walk there needs no filtering.
    public func isUniform(below path: String, for user: String?) -> Bool {
        if let user, administrators.contains(user) { return true }
        let parts = Self.components(of: path)
        return !rules.contains { $0.components.count > parts.count && $0.components.starts(with: parts) }
    }
}
