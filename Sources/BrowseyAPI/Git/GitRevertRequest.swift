/// The body of `POST /api/git/revert`: which file's changes to discard, in which repository.
public struct GitRevertRequest: Codable, Sendable, Hashable {
    /// A served path inside the repository (used only to find it).
    public var path: String
    /// The file, relative to the repository's root, as a ``GitChange`` named it.
    public var filePath: String

    /// Makes the request.
    public init(path: String, filePath: String) {
        self.path = path
        self.filePath = filePath
    }
}
