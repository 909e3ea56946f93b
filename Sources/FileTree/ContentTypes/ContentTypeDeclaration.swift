/// What an app says about one of its own types when it registers it with
/// ``ContentTypeRegistry/register(_:)``: like an exported type declaration in an Info.plist.
///
/// ```swift
/// var registry = ContentTypeRegistry.standard
/// try registry.register(ContentTypeDeclaration(
///     identifier: "com.example.sketch", conformsTo: ["com.apple.package"],
///     filenameExtensions: ["sketchbook"], description: "Sketchbook"))
/// ```
public struct ContentTypeDeclaration: Sendable, Hashable {
    /// The reverse-DNS identifier of the new type.
    public var identifier: String
    /// Identifiers of the registered types it conforms to: `com.apple.package` for a package
    /// document, `public.data` (or something under it) for a flat file.
    public var conformsTo: [String]
    /// Its filename extensions without the dot; the first is preferred.
    public var filenameExtensions: [String]
    /// Its MIME types; the first is preferred.
    public var mimeTypes: [String]
    /// Whole file names that have this type (`Makefile`).
    public var filenames: [String]
    /// A short description for people.
    public var description: String

    /// Declares a type.
    public init(
        identifier: String,
        conformsTo: [String],
        filenameExtensions: [String] = [],
        mimeTypes: [String] = [],
        filenames: [String] = [],
        description: String = ""
    ) {
        self.identifier = identifier
        self.conformsTo = conformsTo
        self.filenameExtensions = filenameExtensions
        self.mimeTypes = mimeTypes
        self.filenames = filenames
        self.description = description
    }
}
