import DocumentBrowser
import Foundation
import TestSupport

/// A documents folder of its own for one test, with awkward names: documents at the top, a
/// package document with a thumbnail, an excluded folder, a hidden one, a plain folder looked
/// through, and a group holding a nested group.
struct LibraryFixture {
    let folder: TemporaryFolder
    let library: DocumentLibrary

    static let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    init(populated: Bool = true) throws {
        folder = try TemporaryFolder(prefix: "browsey-documents")
        library = DocumentLibrary(
            root: folder.path, documentExtensions: ["sketch"], excludedFolderNames: ["Inbox"],
            thumbnailName: "QuickLook/Thumbnail.png")
        guard populated else { return }
        try folder.file("My Drawing.sketch", "one")
        try folder.file("Café #1.SKETCH", "two two")
        try folder.file("notes.txt", "not a document")
        try folder.file("Pkg 100%.sketch/QuickLook/Thumbnail.png", Self.pngBytes)
        try folder.file("Pkg 100%.sketch/data.json", "{\"strokes\": []}")
        try folder.file("Inbox/excluded.sketch", "x")
        try folder.file(".hidden/secret.sketch", "x")
        try folder.file("Plain folder/deep/Looked through.sketch", "x")
        try folder.file("Stack 📚/.browsey-group", "")
        try folder.file("Stack 📚/In the stack.sketch", "x")
        try folder.file("Stack 📚/Nested/.browsey-group", "")
        try folder.file("Stack 📚/Nested/Deeper.sketch", "x")
        _ = try folder.symlink("link.sketch", to: "My Drawing.sketch")
    }

    func path(_ relative: String) -> String { folder.path(relative) }

    /// Sets a file's modification date, `seconds` after 2020-01-01.
    func setModified(_ relative: String, _ seconds: Int) {
        var times = [
            timespec(tv_sec: 1_577_836_800 + seconds, tv_nsec: 0),
            timespec(tv_sec: 1_577_836_800 + seconds, tv_nsec: 0),
        ]
        utimensat(AT_FDCWD, path(relative), &times, AT_SYMLINK_NOFOLLOW)
    }
}
