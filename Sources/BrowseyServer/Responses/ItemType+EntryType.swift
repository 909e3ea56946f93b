import BrowseyAPI
import FileTree

extension ItemType {
    /// The contract's type of an entry: a folder, a link, or a file (anything else).
    init(_ type: EntryType) {
        switch type {
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .regular, .other: self = .file
        }
    }
}
