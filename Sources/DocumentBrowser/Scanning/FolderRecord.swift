import FileTree

/// What the index knows of one folder it entered: whether it is a group, its own dates, its
/// documents by name, and the names of the folders below it that it entered too (each with its
/// own record).
struct FolderRecord: Sendable {
    var isGroup = false
    var modified: Timestamp?
    var created: Timestamp?
    var documents: [String: DocumentItem] = [:]
    var folders: Set<String> = []
}
