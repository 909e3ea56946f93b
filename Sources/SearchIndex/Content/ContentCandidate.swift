/// A file the content index says may match: read it to know (``ContentMatcher``).
public struct ContentCandidate: Sendable, Hashable {
    /// Its place in the index: later readings have higher ids (pass the last one seen to
    /// ``ContentIndex/candidates(_:under:before:limit:)`` for the next page).
    public var id: Int64
    /// Where it is, relative to the root: `/docs/a.md`.
    public var path: String
}
