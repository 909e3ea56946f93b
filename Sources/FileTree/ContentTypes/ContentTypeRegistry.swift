/// Maps extensions, file names and MIME types to ``ContentType``s and back, on every platform.
///
/// The registry is a value: ``standard`` holds the built-in types (every extension Browsey knows
/// and the common document, media, archive and package types); an app copies it, registers its own
/// types and hands the copy to whatever reads folders (``DirectoryReader/registry``). Nothing
/// about it is process-global.
public struct ContentTypeRegistry: Sendable {
    private var byIdentifier: [String: ContentType] = [:]
    private var byExtension: [String: ContentType] = [:]
    private var byFilename: [String: ContentType] = [:]
    private var byMIMEType: [String: ContentType] = [:]
    /// Length and first byte of every whole file name registered: most names can skip the
    /// whole-name lookup without hashing.
    private var filenameShapes: Set<Int> = []

    /// An empty registry holding only `public.item`, the root of every type.
    public init() {
        let root = ContentTypeDeclaration(identifier: "public.item", conformsTo: [], description: "Item")
        byIdentifier[root.identifier] = ContentType(storage: .init(declaration: root, ancestors: []))
    }

    /// Every registered type, in no particular order.
    public var allTypes: [ContentType] { Array(byIdentifier.values) }

    /// The type with this identifier, if registered.
    public subscript(identifier: String) -> ContentType? { byIdentifier[identifier] }

    /// The type registered for a filename extension (case does not matter), if any.
    public func type(forExtension pathExtension: some StringProtocol) -> ContentType? {
        if let type = byExtension[String(pathExtension)] { return type }
        return byExtension[pathExtension.lowercased()]
    }

    /// The type registered for a MIME type (parameters such as `; charset=` are ignored).
    public func type(forMIMEType mimeType: String) -> ContentType? {
        let bare = mimeType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingASCIIWhitespace().lowercased()
        }
        return bare.flatMap { byMIMEType[$0] }
    }

    /// The type of a file or folder named `name`: a registered whole name (`Makefile`), else its
    /// extension, else `public.data` for files. Folders are `public.folder` unless their extension
    /// is a registered package type.
    public func type(forFileName name: some StringProtocol, isDirectory: Bool = false) -> ContentType {
        if isDirectory {
            if let ext = FileName.pathExtension(of: name), let type = type(forExtension: ext),
                type.isDirectory
            {
                return type
            }
            return ContentType.folder
        }
        let utf8 = Substring(name).utf8
        if let first = utf8.first, filenameShapes.contains(utf8.count << 8 | Int(first)),
            let type = byFilename[String(name)]
        {
            return type
        }
        if let ext = FileName.pathExtension(of: name), let type = type(forExtension: ext),
            !type.isDirectory
        {
            return type
        }
        return ContentType.data
    }

    /// Whether a folder with this name is a package that deep reads do not descend into.
    public func isPackage(folderName name: some StringProtocol) -> Bool {
        guard let ext = FileName.pathExtension(of: name) else { return false }
        return type(forExtension: ext)?.isPackage ?? false
    }

    /// Adds a type. Its supertypes must already be registered; its extensions, file names and MIME
    /// types then resolve to it, taking over from a type registered earlier.
    ///
    /// - Throws: ``FileTreeError`` `.invalidArgument` when the identifier is empty or a supertype
    ///   is unknown.
    public mutating func register(_ declaration: ContentTypeDeclaration) throws(FileTreeError) {
        try add(declaration, replacingTags: true)
    }

    /// Registers the built-in declarations in order; a tag keeps its first type.
    init(declarations: [ContentTypeDeclaration]) throws(FileTreeError) {
        self.init()
        for declaration in declarations { try add(declaration, replacingTags: false) }
    }

    private mutating func add(
        _ declaration: ContentTypeDeclaration, replacingTags: Bool
    ) throws(FileTreeError) {
        guard !declaration.identifier.isEmpty else {
            throw FileTreeError(.invalidArgument, "A content type needs an identifier")
        }
        var ancestors: Set<String> = []
        for parent in declaration.conformsTo {
            guard let type = byIdentifier[parent] else {
                throw FileTreeError(
                    .invalidArgument,
                    "Content type \(declaration.identifier) conforms to \(parent), which is not registered")
            }
            ancestors.insert(parent)
            ancestors.formUnion(type.allSupertypeIdentifiers)
        }
        let type = ContentType(storage: .init(declaration: declaration, ancestors: ancestors))
        byIdentifier[declaration.identifier] = type
        for ext in type.filenameExtensions where replacingTags || byExtension[ext] == nil {
            byExtension[ext] = type
        }
        for name in declaration.filenames {
            for key in [name, name.lowercased()] where replacingTags || byFilename[key] == nil {
                byFilename[key] = type
                if let first = key.utf8.first { filenameShapes.insert(key.utf8.count << 8 | Int(first)) }
            }
        }
        for mime in declaration.mimeTypes.map({ $0.lowercased() })
        where replacingTags || byMIMEType[mime] == nil {
            byMIMEType[mime] = type
        }
    }

    /// A type that the built-in table is known to hold.
    static func builtIn(_ identifier: String) -> ContentType {
        guard let type = standard[identifier] else {
            preconditionFailure("the standard content-type table lacks \(identifier)")
        }
        return type
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
