public import BrowseyAPI

/// One row of a folder as a browser shows it: the way up, a folder, or a file.
public struct BrowserRow: Sendable, Hashable, Identifiable {
    /// What the row stands for.
    public enum Kind: Sendable, Hashable {
        /// `..`: the parent folder.
        case parent
        /// A folder (or a link to one).
        case folder
        /// A file (or a link to one).
        case file
    }

    /// The row's path on the server, which is unique in a listing.
    public var id: String { path }
    /// What the row stands for.
    public var kind: Kind
    /// The name shown (`..` for the way up).
    public var name: String
    /// The path on the server.
    public var path: String
    /// The listing's item (nil for `..`).
    public var item: ListItem?

    /// `1.5 MB • 2024-01-15` for a file, the date alone for a folder.
    public var detail: String {
        guard let item else { return "" }
        let date = String(BrowseyDate.string(from: item.modified).prefix(10))
        return kind == .file ? "\(ByteCount.text(item.size)) • \(date)" : date
    }
}

/// How a folder's rows are ordered; folders always come first.
public struct BrowserSort: Sendable, Hashable {
    /// What rows are compared by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        case name, size, date
    }

    /// What rows are compared by.
    public var key: Key
    /// Smallest, oldest or A first.
    public var ascending: Bool

    /// An order.
    public init(key: Key = .name, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// Whether `left` comes before `right`.
    func precedes(_ left: ListItem, _ right: ListItem) -> Bool {
        let leftFolder = left.type == .directory || left.targetType == .directory
        let rightFolder = right.type == .directory || right.targetType == .directory
        if leftFolder != rightFolder { return leftFolder }
        let nameFirst = Self.nameLess(left.name, right.name)
        switch key {
        case .name:
            return ascending ? nameFirst : Self.nameLess(right.name, left.name)
        case .size:
            if left.size != right.size { return ascending ? left.size < right.size : left.size > right.size }
        case .date:
            if left.modified != right.modified {
                return ascending ? left.modified < right.modified : left.modified > right.modified
            }
        }
        return nameFirst
    }

    /// Case-insensitive, then case-sensitive to keep the order total.
    static func nameLess(_ left: String, _ right: String) -> Bool {
        let (a, b) = (left.lowercased(), right.lowercased())
        return a != b ? a < b : left < right
    }
}
