import BrowseyAPI
import FileTree
import SearchIndex

extension ItemType {
    /// The contract's type of an entry: a folder, a link, or a file (anything else).
    init(_ type: EntryType) {
        switch type {
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .regular, .other: self = .file
        }
    }

    /// The contract's type of an entry the index holds.
    init(_ kind: IndexedEntry.Kind) {
        switch kind {
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .file: self = .file
        }
    }
}
