/// Which names a read keeps. A name left out is neither listed nor descended into, and costs no
/// system call beyond `readdir`.
///
/// ```swift
/// var filter = EntryFilter.visible            // no dot-names
/// filter.excludedNames = [NamePattern("*.tmp"), NamePattern("node_modules")]
/// let folder = try DirectoryReader(filter: filter).read(at: path, depth: .deep)
/// ```
public struct EntryFilter: Sendable {
    /// Whether dot-names (`.git`, `.env`) are kept.
    public var includesHidden: Bool
    /// Names matching any of these globs are left out.
    public var excludedNames: [NamePattern]
    /// Whether only folders are kept. Decided from `readdir`'s type before any `statx`, so a
    /// walk that only needs the folders of a tree (to watch them) never reads the files' metadata.
    public var foldersOnly: Bool = false
    /// A last test on the read entry (its metadata is there); `false` leaves it out. A folder
    /// left out is not descended into.
    public var predicate: (@Sendable (FileEntry) -> Bool)?

    /// A filter; by default it keeps everything.
    public init(
        includesHidden: Bool = true,
        excludedNames: [NamePattern] = [],
        predicate: (@Sendable (FileEntry) -> Bool)? = nil
    ) {
        self.includesHidden = includesHidden
        self.excludedNames = excludedNames
        self.predicate = predicate
    }

    /// Keeps every entry.
    public static let all = EntryFilter()
    /// Leaves out dot-names.
    public static let visible = EntryFilter(includesHidden: false)

    /// Whether a name passes the hidden and glob rules.
    public func includes(name: some StringProtocol) -> Bool {
        if !includesHidden && FileName.isHidden(name) { return false }
        return !excludedNames.contains { $0.matches(name) }
    }

    /// Whether an entry passes every rule.
    public func includes(_ entry: FileEntry) -> Bool {
        includes(name: entry.name) && (predicate?(entry) ?? true)
    }

    var isEverything: Bool { includesHidden && excludedNames.isEmpty && predicate == nil && !foldersOnly }
}
