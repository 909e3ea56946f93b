/// What a search looks in.
public enum SearchScope: String, Sendable, Hashable, CaseIterable {
    /// File and folder names.
    case names
    /// What text files say (`GET /api/search?in=content`).
    case contents
}
