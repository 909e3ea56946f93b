/// What one request may reach and do, decided once in front of the routes (``AccessDecision``)
/// from who sent it, and carried by its context (``FileServerContext/access``): the path rules
/// its paths resolve under, whether the server writes at all, and, on a server with accounts,
/// who asks and the folder rules that say what they may do where.
///
/// Controllers ask the request's access, never the configuration, so that a rule depending on
/// who asks is decided in one place: ``check(_:_:notFound:)`` is that place, called by the
/// controllers' `resolve`, `resolveForWriting` and `destinationFolder`, and ``maySee(_:)``
/// and ``mayRead(_:)`` filter what listings, walks, searches and events carry. A context no
/// decision reached can do nothing.
public struct RequestAccess: Sendable {
    /// What a request needs of a path.
    public enum Need: Sendable {
        /// To know it is there (a folder on the way to something granted, a listing's scope).
        case see
        /// To read it.
        case read
        /// To change or delete it, or create it where write is granted.
        case write
        /// To add a new file there (write or upload).
        case upload
    }

    /// The path rules, `nil` when nothing may be reached.
    let paths: SafePath?
    /// Whether the server changes anything at all (not started read-only).
    let mayWrite: Bool
    /// The folder rules, `nil` on a server without accounts (every path its rules reach).
    let policy: AccessPolicy?
    /// Who asks: an account's name, `nil` when nobody signed in. For a share link, its owner.
    public let user: String?
    /// For a share link: the one item it opens (a resolved path) and what it allows there. Nothing
    /// outside it is reachable, nor even seen, whatever the owner may do elsewhere.
    let scope: (path: String, rights: Rights)?
    /// Where `paths`' root lies in the served folder, as the folder rules name it: `/` but for a
    /// share link's requests, whose root is the shared folder.
    let base: String

    /// Nothing reachable: what a context holds until the decision runs.
    static let nothing = RequestAccess(paths: nil, mayWrite: false)

    init(
        paths: SafePath?, mayWrite: Bool, policy: AccessPolicy? = nil, user: String? = nil,
        scope: (path: String, rights: Rights)? = nil, base: String = "/"
    ) {
        self.paths = paths
        self.mayWrite = mayWrite
        self.policy = policy
        self.user = user
        self.scope = scope
        self.base = base
    }

    /// This access narrowed to one item, as a share link of `user` opens it: `rights` there and
    /// below (never more than the owner has), nothing elsewhere.
    func scoped(to path: String, rights: Rights) -> RequestAccess {
        RequestAccess(
            paths: paths, mayWrite: mayWrite, policy: policy, user: user, scope: (path, rights), base: base)
    }

    /// `relative` (under `paths`) as the folder rules name it.
    private func ruled(_ relative: String) -> String {
        base == "/" ? relative : relative == "/" ? base : base + relative
    }

    /// Whether `relative` is the scope's item or lies below it (always, without a scope).
    private func inScope(_ relative: String) -> Bool {
        guard let scope else { return true }
        let inside = AccessPolicy.components(of: relative)
        return inside.starts(with: AccessPolicy.components(of: scope.path))
    }

    /// The path rules this request resolves under; a request that no decision reached is the
    /// server's own mistake, answered 500, never served.
    func rules() throws(APIError) -> SafePath {
        guard let paths else { throw .internalError }
        return paths
    }

    /// What this request may do at `relative` (a resolved path): on a server without accounts,
    /// everything when it writes and reading otherwise.
    public func rights(at relative: String) -> Rights {
        var cap: Rights = mayWrite ? .all : .read
        if let scope {
            guard inScope(relative) else { return [] }
            cap.formIntersection(scope.rights)
        }
        guard let policy else { return cap }
        return policy.rights(of: user, at: ruled(relative)).intersection(cap)
    }

    /// Whether this request may know that `relative` exists.
    public func maySee(_ relative: String) -> Bool {
        if scope != nil {
            // Within a share only what it may read is seen: a drop box shows nothing.
            return rights(at: relative).contains(.read)
        }
        guard let policy else { return true }
        return policy.maySee(user, ruled(relative))
    }

    /// Whether what this request reaches depends on who asks (a server with accounts, or a share
    /// link): a listing is then read for it alone, links and all checked.
    var dependsOnWhoAsks: Bool { policy != nil || scope != nil }

    /// Whether this request may read `relative`.
    public func mayRead(_ relative: String) -> Bool { rights(at: relative).contains(.read) }

    /// Whether everything below `relative` is granted as `relative` itself: a listing or a walk
    /// there needs no filtering (always so without accounts).
    func isUniform(below relative: String) -> Bool {
        if let scope,
            !AccessPolicy.components(of: relative).starts(with: AccessPolicy.components(of: scope.path))
        {
            return false
        }
        return policy?.isUniform(below: ruled(relative), for: user) ?? true
    }

    /// Refuses `target` unless this request may do `need` there, both at the path asked for and
    /// at the place it really is (a link inside the root to a folder of other rights reaches
    /// nothing more than that folder's rights allow).
    ///
    /// The answers reveal nothing: someone not signed in is asked to (401); a path the user may
    /// not even see is not found (404, with the endpoint's own wording); one they see but may
    /// not use this way is 403 `notAllowed`.
    func check(_ need: Need, _ target: SafePath.Resolved, notFound: String) throws(APIError) {
        guard policy != nil || scope != nil else { return }
        var places = [target.relative]
        if let paths, let real = paths.realRelative(of: target), real != target.relative {
            places.append(real)
        }
        for place in places { try check(need, at: place, notFound: notFound) }
    }

    /// Refuses an operation on the whole of `target` (renaming, moving, copying or deleting a
    /// folder) when a rule below it grants other rights: the operation would carry, change or
    /// delete items the check at `target` says nothing about. Such a folder is handled item by
    /// item. Always passes without accounts.
    func checkWhole(_ target: SafePath.Resolved) throws(APIError) {
        guard !isUniform(below: target.relative) else { return }
        throw APIError(
            .forbidden, "Items inside have rights of their own: change them one by one", code: .notAllowed)
    }

    private func check(_ need: Need, at place: String, notFound: String) throws(APIError) {
        let rights = rights(at: place)
        let granted: Bool
        switch need {
        case .see: granted = maySee(place)
        case .read: granted = rights.contains(.read)
        case .write: granted = rights.contains(.write)
        case .upload: granted = !rights.isDisjoint(with: [.write, .upload])
        }
        if granted { return }
        if scope != nil { throw APIError(.notFound, notFound, code: .notFound) }
        if user == nil { throw .signInRequired }
        if !maySee(place) { throw APIError(.notFound, notFound, code: .notFound) }
        throw .notAllowed
    }
}
