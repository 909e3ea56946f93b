public import FileTree

/// A document type an app owns, in the manner of SwiftUI's `FileDocument`: it says which
/// content types it reads and writes, makes itself from a file's contents, and writes itself
/// to a ``DocumentWrapper``. ``DocumentStore`` opens and saves it.
///
/// ```swift
/// struct Sketch: BrowserDocument {
///     static let readableContentTypes = [sketchType]
///     var strokes: [Stroke] = []
///     init() {}
///     init(configuration: DocumentReadConfiguration) throws {
///         guard let data = configuration.file.fileWrappers?["data.json"]?.regularFileContents
///         else { throw SketchError.damaged }
///         strokes = try decode(data)
///     }
///     func fileWrapper(configuration: DocumentWriteConfiguration) throws -> DocumentWrapper {
///         .package(["data.json": .file(encode(strokes))])
///     }
/// }
/// ```
public protocol BrowserDocument: Sendable {
    /// The types this document opens.
    static var readableContentTypes: [ContentType] { get }
    /// The types it saves as; by default those it reads.
    static var writableContentTypes: [ContentType] { get }
    /// Makes the document from a file's (or package's) contents.
    init(configuration: DocumentReadConfiguration) throws
    /// The contents to save.
    func fileWrapper(configuration: DocumentWriteConfiguration) throws -> DocumentWrapper
}

extension BrowserDocument {
    /// The types it reads.
    public static var writableContentTypes: [ContentType] { readableContentTypes }
}

/// What a document is read from.
public struct DocumentReadConfiguration: Sendable {
    /// The file's type, from the registry.
    public let contentType: ContentType
    /// The file's contents.
    public let file: DocumentWrapper

    /// A read configuration.
    public init(contentType: ContentType, file: DocumentWrapper) {
        self.contentType = contentType
        self.file = file
    }
}

/// What a document is written for.
public struct DocumentWriteConfiguration: Sendable {
    /// The type to write.
    public let contentType: ContentType
    /// What the file holds now (`nil` for a new document), for writers that keep unchanged
    /// parts.
    public let existingFile: DocumentWrapper?

    /// A write configuration.
    public init(contentType: ContentType, existingFile: DocumentWrapper?) {
        self.contentType = contentType
        self.existingFile = existingFile
    }
}
