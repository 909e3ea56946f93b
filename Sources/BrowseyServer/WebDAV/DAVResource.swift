import FileTree

/// One resource a PROPFIND describes: its path below the root, whether it is a folder, its
/// status, and (read only when asked for) its dead properties.
struct DAVResource: Sendable {
    let path: String
    let isFolder: Bool
    let status: FileStatus
    /// Reads the dead properties; `nil` when there can be none (a link shown by its target).
    let deadProperties: (@Sendable () -> [DAVName: String])?
}
