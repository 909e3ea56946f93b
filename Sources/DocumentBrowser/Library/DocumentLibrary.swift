public import FileTree

/// What a document browser shows: the folder it owns and which of its items are the app's
/// documents.
///
/// ```swift
/// let library = DocumentLibrary(
///     root: documentsFolder, documentExtensions: ["sketch"],
///     excludedFolderNames: ["Inbox", ".Trash"], thumbnailName: "QuickLook/Thumbnail.png")
/// ```
///
/// A document is a file, or a folder (a package), whose extension is registered, compared
/// without regard to case. Folders named in ``excludedFolderNames`` are never entered; hidden
/// names (starting with a dot) are never documents. A folder holding a file named
/// ``groupMarkerName`` is a *group* (a stack); any other folder is looked through, its documents
/// shown with those of the folder above it.
public struct DocumentLibrary: Sendable {
    /// The folder the browser owns, absolute.
    public var root: String
    /// The registered extensions, lowercased and without a dot; the first is used for new
    /// documents.
    public var documentExtensions: [String] {
        didSet { extensionSet = Set(documentExtensions.map { $0.lowercased() }) }
    }
    /// Folder names that are never entered.
    public var excludedFolderNames: Set<String>
    /// The hidden file that marks a folder as a group.
    public var groupMarkerName: String
    /// Where a package document keeps its thumbnail (a PNG), relative to the package, if it
    /// does.
    public var thumbnailName: String?
    /// The name new documents are numbered from (`Untitled`, `Untitled 1`, …).
    public var newDocumentName: String
    /// The name new groups are numbered from (`Group`, `Group 1`, …).
    public var newGroupName: String
    private var extensionSet: Set<String>

    /// Describes a library.
    public init(
        root: String, documentExtensions: [String], excludedFolderNames: Set<String> = [],
        groupMarkerName: String = ".browsey-group", thumbnailName: String? = nil,
        newDocumentName: String = "Untitled", newGroupName: String = "Group"
    ) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.documentExtensions = documentExtensions.map { $0.lowercased() }
        self.extensionSet = Set(documentExtensions.map { $0.lowercased() })
        self.excludedFolderNames = excludedFolderNames
        self.groupMarkerName = groupMarkerName
        self.thumbnailName = thumbnailName
        self.newDocumentName = newDocumentName
        self.newGroupName = newGroupName
    }

    /// Describes a library whose documents are the given content types (their file-name
    /// extensions, as a registry declares them).
    public init(
        root: String, contentTypes: [ContentType], excludedFolderNames: Set<String> = [],
        thumbnailName: String? = nil
    ) {
        self.init(
            root: root, documentExtensions: contentTypes.flatMap(\.filenameExtensions),
            excludedFolderNames: excludedFolderNames, thumbnailName: thumbnailName)
    }

    /// Whether an item with this name is a document (its kind aside).
    public func isDocumentName(_ name: some StringProtocol) -> Bool {
        guard !FileName.isHidden(name), let ext = FileName.pathExtension(of: name) else { return false }
        return extensionSet.contains(ext.lowercased())
    }

    /// Whether a folder with this name is looked into (not excluded, not hidden).
    public func entersFolder(named name: some StringProtocol) -> Bool {
        !FileName.isHidden(name) && !excludedFolderNames.contains(String(name))
    }

    /// The extension new documents get.
    public var preferredExtension: String? { documentExtensions.first }

    /// The absolute path of an item given by its identifier (its path below the root).
    public func path(of id: DocumentItem.ID) -> String {
        id.isEmpty ? root : (root == "/" ? "/" + id : root + "/" + id)
    }

    /// The identifier of an absolute path below the root, or `nil` for a path outside it (the
    /// root itself is `""`).
    public func id(ofPath path: String) -> DocumentItem.ID? {
        if path == root { return "" }
        let prefix = root == "/" ? "/" : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        return rest.isEmpty ? nil : String(rest)
    }
}
