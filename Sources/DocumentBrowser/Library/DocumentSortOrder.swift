/// How the browser orders its items.
public struct DocumentSortOrder: Sendable, Hashable {
    /// What items are compared by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The name shown, as people expect (`Untitled 2` before `Untitled 10`, case ignored).
        case name
        /// The last change.
        case dateModified
        /// The size.
        case size
    }

    /// What items are compared by.
    public var key: Key
    /// Smallest, oldest or A first when `true`.
    public var ascending: Bool

    /// An order; by default names from A, dates from the newest, sizes from the largest.
    public init(_ key: Key, ascending: Bool? = nil) {
        self.key = key
        self.ascending = ascending ?? (key == .name)
    }

    /// Newest first, as Procreate's gallery opens.
    public static let newestFirst = DocumentSortOrder(.dateModified, ascending: false)
    /// A to Z.
    public static let byName = DocumentSortOrder(.name, ascending: true)

    /// Sorts items; ties are broken by name, then by identifier, so the order is total.
    public func sort(_ items: inout [DocumentItem]) {
        let key = key
        let ascending = ascending
        items.sort { a, b in
            switch key {
            case .name: break
            case .dateModified where a.modified != b.modified:
                return ascending ? a.modified < b.modified : b.modified < a.modified
            case .size where a.size != b.size:
                return ascending ? a.size < b.size : b.size < a.size
            default: break
            }
            if a.sortKey != b.sortKey {
                return ascending || key != .name ? a.sortKey < b.sortKey : b.sortKey < a.sortKey
            }
            return a.id < b.id
        }
    }
}
