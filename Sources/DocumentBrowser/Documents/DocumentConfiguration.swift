#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The properties of an open document, like SwiftUI's `FileDocumentConfiguration`: the
/// document, where it lives (`nil` while it was never saved) and whether it may be changed.
///
/// ```swift
/// Text(configuration.fileURL?.lastPathComponent ?? "Untitled")
/// Text(configuration.isEditable ? "Editable" : "Read-only")
/// ```
public struct DocumentConfiguration<Document: BrowserDocument>: Sendable {
    /// The document.
    public var document: Document
    /// The file, or `nil` for a new, unsaved document.
    public var fileURL: URL?
    /// Whether the document can be changed and saved: false for a read-only file, a folder
    /// that cannot be written, or a document opened read-only.
    public var isEditable: Bool

    /// A configuration.
    public init(document: Document, fileURL: URL?, isEditable: Bool) {
        self.document = document
        self.fileURL = fileURL
        self.isEditable = isEditable
    }
}
