/// A kind of file, named by a reverse-DNS identifier (`public.png`, `public.swift-source`), with
/// the types it conforms to, its filename extensions and its MIME types: a UTType that works the
/// same on Linux.
///
/// Types come from a ``ContentTypeRegistry``; the well-known ones are also static members:
///
/// ```swift
/// let type = ContentTypeRegistry.standard.type(forFileName: "main.swift")
/// type.identifier                   // "public.swift-source"
/// type.conforms(to: .sourceCode)    // true
/// type.isText                       // true
/// type.preferredMIMEType            // "text/x-swift"
/// ```
public struct ContentType: Sendable, Hashable, CustomStringConvertible {
    let storage: Storage

    /// The type's unique identifier, such as `net.daringfireball.markdown`.
    public var identifier: String { storage.identifier }
    /// The identifiers of the types this one directly conforms to.
    public var supertypeIdentifiers: [String] { storage.parents }
    /// Every identifier this type conforms to, directly or through its supertypes.
    public var allSupertypeIdentifiers: Set<String> { storage.ancestors }
    /// Filename extensions, lowercase and without the dot; the first is the preferred one.
    public var filenameExtensions: [String] { storage.extensions }
    /// MIME types; the first is the preferred one.
    public var mimeTypes: [String] { storage.mimeTypes }
    /// Whole file names that have this type whatever their extension (`Makefile`, `.gitignore`).
    public var filenames: [String] { storage.filenames }
    /// A short description for people, such as "Markdown text".
    public var localizedDescription: String { storage.summary }
    /// The preferred extension, without the dot.
    public var preferredFilenameExtension: String? { storage.extensions.first }
    /// The preferred MIME type.
    public var preferredMIMEType: String? { storage.mimeTypes.first }

    /// Whether this type is `type` or conforms to it.
    public func conforms(to type: ContentType) -> Bool {
        storage === type.storage || storage.identifier == type.identifier
            || storage.ancestors.contains(type.identifier)
    }

    /// Whether this type is `other` or a supertype of it.
    public func isSupertype(of other: ContentType) -> Bool { other.conforms(to: self) }

    /// Text of any kind: plain text, source code, Markdown, JSON, HTML, …
    public var isText: Bool { storage.kinds.contains(.text) }
    /// Images.
    public var isImage: Bool { storage.kinds.contains(.image) }
    /// Audio.
    public var isAudio: Bool { storage.kinds.contains(.audio) }
    /// Video (movies).
    public var isVideo: Bool { storage.kinds.contains(.video) }
    /// Archives (zip, tar, gzip, …).
    public var isArchive: Bool { storage.kinds.contains(.archive) }
    /// Source code.
    public var isSourceCode: Bool { storage.kinds.contains(.sourceCode) }
    /// Folders that are shown and treated as one document (`.app`, `.pages`, `.xcodeproj`).
    public var isPackage: Bool { storage.kinds.contains(.package) }
    /// Folders of any kind, packages included.
    public var isDirectory: Bool { storage.kinds.contains(.directory) }

    /// The identifier.
    public var description: String { storage.identifier }

    /// Two types are equal when their identifiers are.
    public static func == (lhs: ContentType, rhs: ContentType) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.identifier == rhs.storage.identifier
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.identifier) }
}

extension ContentType {
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt16
        static let text = Kinds(rawValue: 1 << 0)
        static let image = Kinds(rawValue: 1 << 1)
        static let audio = Kinds(rawValue: 1 << 2)
        static let video = Kinds(rawValue: 1 << 3)
        static let archive = Kinds(rawValue: 1 << 4)
        static let sourceCode = Kinds(rawValue: 1 << 5)
        static let package = Kinds(rawValue: 1 << 6)
        static let directory = Kinds(rawValue: 1 << 7)

        static let markers: [(String, Kinds)] = [
            ("public.text", .text), ("public.image", .image), ("public.audio", .audio),
            ("public.movie", .video), ("public.archive", .archive),
            ("public.source-code", .sourceCode), ("com.apple.package", .package),
            ("public.directory", .directory),
        ]
    }

    /// The immutable description of one type, shared by every value that names it.
    final class Storage: Sendable {
        let identifier: String
        let parents: [String]
        let ancestors: Set<String>
        let extensions: [String]
        let mimeTypes: [String]
        let filenames: [String]
        let summary: String
        let kinds: Kinds

        init(declaration: ContentTypeDeclaration, ancestors: Set<String>) {
            identifier = declaration.identifier
            parents = declaration.conformsTo
            self.ancestors = ancestors
            extensions = declaration.filenameExtensions.map { $0.lowercased() }
            mimeTypes = declaration.mimeTypes
            filenames = declaration.filenames
            summary = declaration.description
            var kinds: Kinds = []
            for (marker, kind) in Kinds.markers
            where marker == declaration.identifier || ancestors.contains(marker) {
                kinds.insert(kind)
            }
            self.kinds = kinds
        }
    }
}
