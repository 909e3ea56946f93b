/// `GET /api/shared/{id}`: what a share link opens, in the link's own terms (never where it lies
/// on the server).
public struct SharedItemResponse: Codable, Sendable, Hashable {
    /// The shared file's or folder's name.
    public var name: String
    /// Whether it is a folder (listed with `/api/shared/{id}/list`).
    public var folder: Bool
    /// Its path inside the link: `/` for a folder, `/NAME` for a file.
    public var path: String

    /// Makes the answer.
    public init(name: String, folder: Bool, path: String) {
        self.name = name
        self.folder = folder
        self.path = path
    }
}
