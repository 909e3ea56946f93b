import FileTree

/// Where an upload lands: a folder held open inside the root and the name in it (past any
/// link there), the path from the root to answer with, and whether it replaces what is there.
struct UploadPlace {
    let folder: OpenFolder
    let name: String
    let path: String
    var replacing = false
}
