import FileTree

/// A document's contents as stored: one file's bytes, or a package (a folder) of named
/// wrappers. The value a ``BrowserDocument`` reads from and writes to, like Foundation's
/// `FileWrapper` but a `Sendable` value, so saving runs off the main actor.
///
/// ```swift
/// let wrapper = DocumentWrapper.package([
///     "data.json": .file(Array(json)),
///     "QuickLook": .package(["Thumbnail.png": .file(png)]),
/// ])
/// ```
public enum DocumentWrapper: Sendable, Hashable {
    /// A regular file's bytes.
    case file([UInt8])
    /// A folder's items by name.
    case package([String: DocumentWrapper])

    /// The bytes, for a file.
    public var regularFileContents: [UInt8]? {
        if case .file(let bytes) = self { return bytes }
        return nil
    }

    /// The items, for a package.
    public var fileWrappers: [String: DocumentWrapper]? {
        if case .package(let items) = self { return items }
        return nil
    }

    /// Whether this is a package.
    public var isPackage: Bool { fileWrappers != nil }

    /// Reads a file or a package (links inside a package are left out: never followed).
    static func read(at path: String) throws(FileTreeError) -> DocumentWrapper {
        let entry = try DirectoryReader().entry(at: path)
        switch entry.type {
        case .regular:
            return .file(try FileBytes.read(path))
        case .directory:
            var items: [String: DocumentWrapper] = [:]
            for child in try DirectoryReader().entries(at: path)
            where child.type == .regular || child.type == .directory {
                items[child.name] = try read(at: child.path)
            }
            return .package(items)
        default:
            throw FileTreeError(.unsupported, "A document is a file or a folder", path: path)
        }
    }

    /// Writes the wrapper as a new item at `path` (which must not exist): each file flushed to
    /// disk, each folder's names too.
    func write(to path: String) throws(FileTreeError) {
        switch self {
        case .file(let bytes):
            try FileOperations.createFile(bytes, at: path)
        case .package(let items):
            try FileOperations.makeFolder(at: path)
            for (name, item) in items {
                guard FileName.isValidComponent(name) else {
                    throw FileTreeError(
                        .invalidName, "A package item's name must be one path component", path: name)
                }
                try item.write(to: path + "/" + name)
            }
            FileOperations.syncFolder(path)
        }
    }
}
