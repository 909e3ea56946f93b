import DocumentBrowser
import FileTree

/// A plain-text note, stored as one file.
struct Note: BrowserDocument {
    static var readableContentTypes: [ContentType] { [.plainText] }
    var text: String

    init(text: String) { self.text = text }

    init(configuration: DocumentReadConfiguration) throws {
        guard let bytes = configuration.file.regularFileContents else {
            throw DocumentBrowserError(.unreadable, "A note is one file")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DocumentBrowserError(.unreadable, "A note is UTF-8 text")
        }
        self.text = text
    }

    func fileWrapper(configuration: DocumentWriteConfiguration) throws -> DocumentWrapper {
        .file(Array(text.utf8))
    }
}

/// A drawing stored as a package: its strokes, and a thumbnail only while it has strokes.
struct Sketch: BrowserDocument {
    static var readableContentTypes: [ContentType] { [.folder] }
    var strokes: [String]

    init(strokes: [String]) { self.strokes = strokes }

    init(configuration: DocumentReadConfiguration) throws {
        guard let data = configuration.file.fileWrappers?["strokes.txt"]?.regularFileContents else {
            throw DocumentBrowserError(.unreadable, "A sketch holds strokes.txt")
        }
        strokes = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func fileWrapper(configuration: DocumentWriteConfiguration) throws -> DocumentWrapper {
        var items: [String: DocumentWrapper] = [
            "strokes.txt": .file(Array(strokes.joined(separator: "\n").utf8))
        ]
        if !strokes.isEmpty {
            items["QuickLook"] = .package(["Thumbnail.png": .file(LibraryFixture.pngBytes)])
        }
        return .package(items)
    }
}
