/// `POST /api/rename`: gives an item a new name in the same folder.
public struct RenameRequest: Codable, Sendable, Hashable {
    /// The item.
    public var path: String
    /// One path component (no `/`, not `.` or `..`); 409 when the folder already has it.
    public var newName: String

    /// Makes a rename request.
    public init(path: String, newName: String) {
        self.path = path
        self.newName = newName
    }
}
