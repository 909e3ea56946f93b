/// What one request may reach and do, decided once in front of the routes (``AccessDecision``)
/// from who sent it, and carried by its context (``FileServerContext/access``): the path rules
/// its paths resolve under, and whether it may write.
///
/// Controllers ask the request's access, never the configuration, so that a rule depending on
/// who asks is decided in one place. Today every request gets the server's own rules (one
/// ``SafePath``, and writes unless the server is read-only); a context no decision reached can
/// do nothing.
public struct RequestAccess: Sendable {
    /// The path rules, `nil` when nothing may be reached.
    let paths: SafePath?
    /// Whether the request may change anything.
    let mayWrite: Bool

    /// Nothing reachable: what a context holds until the decision runs.
    static let nothing = RequestAccess(paths: nil, mayWrite: false)

    /// The path rules this request resolves under; a request that no decision reached is the
    /// server's own mistake, answered 500, never served.
    func rules() throws(APIError) -> SafePath {
        guard let paths else { throw .internalError }
        return paths
    }
}
