internal import CFileTreeSystem

/// What an entry is on disk, without following a symbolic link.
public enum EntryType: String, Sendable, Hashable, CaseIterable, Codable {
    /// A regular file.
    case regular
    /// A folder (a package is a folder too; see ``FileEntry/isPackage``).
    case directory
    /// A symbolic link; ``FileEntry/symlink`` says where it points.
    case symlink
    /// A device, socket, FIFO, or a type the system did not report.
    case other

    init(mode: UInt32) {
        switch mode & 0o170000 {
        case 0o100000: self = .regular
        case 0o040000: self = .directory
        case 0o120000: self = .symlink
        default: self = .other
        }
    }

    /// The type `readdir` reported (`d_type`), for an entry whose `statx` failed.
    init(direntType: UInt8) {
        switch Int(direntType) {
        case Int(CFT_DT_DIR): self = .directory
        case Int(CFT_DT_REG): self = .regular
        case Int(CFT_DT_LNK): self = .symlink
        default: self = .other
        }
    }
}
