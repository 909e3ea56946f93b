/// One change in the served tree, as the index saw it.
public struct TreeChange: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// A new entry (a new folder stands for everything in it).
        case created
        /// An entry is gone (a folder with everything in it).
        case deleted
        /// Its size, date or kind changed.
        case modified
        /// It moved or was renamed; ``from`` says where it was.
        case renamed
    }

    /// What happened.
    public var kind: Kind
    /// Where the entry is (or was, when deleted), relative to the root: `/docs/a.md`.
    public var path: String
    /// Where a renamed entry was.
    public var from: String?
    /// The entry as it is now (as it was, when deleted).
    public var entry: IndexedEntry

    /// Makes a change.
    public init(kind: Kind, path: String, from: String? = nil, entry: IndexedEntry) {
        self.kind = kind
        self.path = path
        self.from = from
        self.entry = entry
    }

    /// Whether a client watching `folder` (relative, `""` or `/` for the root) should hear of it.
    public func concerns(_ folder: String) -> Bool {
        let folder = folder == "/" ? "" : folder
        func inside(_ path: String) -> Bool {
            folder.isEmpty || path == folder || path.hasPrefix(folder + "/")
        }
        return inside(path) || from.map(inside) == true
    }
}
