/// A piece of metadata beyond the fast default set, loaded only when a read asks for it: per call
/// (``DirectoryReader/read(at:depth:extraAttributes:)``) or as the default of a reader value
/// (``DirectoryReader/extraAttributes``), never process-wide.
///
/// FileTree ships ``ownerName``, ``groupName``, ``childCount`` and ``extendedAttributeNames``.
/// Define your own with a unique name and a loader:
///
/// ```swift
/// extension EntryAttribute where Value == Bool {
///     static let isEmptyFile = EntryAttribute(name: "com.example.isEmptyFile") { context in
///         context.status.map { $0.size == 0 }
///     }
/// }
/// let folder = try DirectoryReader(extraAttributes: [.init(.isEmptyFile)]).read(at: path)
/// folder.entries.first?[.isEmptyFile]
/// ```
public struct EntryAttribute<Value: Sendable>: Sendable {
    /// A unique name; a reverse-DNS prefix keeps yours apart from FileTree's.
    public let name: String
    let load: @Sendable (EntryAttributeContext) -> Value?

    /// Declares an attribute and how to load it for one entry; return `nil` when it has no value.
    public init(name: String, load: @escaping @Sendable (EntryAttributeContext) -> Value?) {
        self.name = name
        self.load = load
    }
}

/// What a loader gets to work from: the entry's path, name, type and status, already read.
public struct EntryAttributeContext: Sendable {
    /// The absolute path.
    public let path: String
    /// The last path component.
    public let name: String
    /// The entry's type.
    public let type: EntryType
    /// The status, when it could be read.
    public let status: FileStatus?
}

/// An ``EntryAttribute`` of any value type, so several can be asked for together.
public struct AnyEntryAttribute: Sendable, Hashable {
    /// The attribute's name.
    public let name: String
    let load: @Sendable (EntryAttributeContext) -> (any Sendable)?

    /// Wraps a typed attribute.
    public init<Value>(_ attribute: EntryAttribute<Value>) {
        name = attribute.name
        let load = attribute.load
        self.load = { load($0) }
    }

    /// Attributes are the same when their names are.
    public static func == (lhs: AnyEntryAttribute, rhs: AnyEntryAttribute) -> Bool { lhs.name == rhs.name }
    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The owner's user name.
    public static let ownerName = AnyEntryAttribute(EntryAttribute<String>.ownerName)
    /// The group's name.
    public static let groupName = AnyEntryAttribute(EntryAttribute<String>.groupName)
    /// How many entries a folder holds.
    public static let childCount = AnyEntryAttribute(EntryAttribute<Int>.childCount)
    /// The names of the extended attributes.
    public static let extendedAttributeNames = AnyEntryAttribute(
        EntryAttribute<[String]>.extendedAttributeNames)
}
