import DocumentBrowser
import FileTree
import Foundation
import Testing

@Suite("The document index")
struct DocumentIndexTests {
    @Test(
        "a scan keeps registered files and packages, looks through plain folders, skips excluded, hidden and linked ones, and shows a group as one item"
    )
    func scanRules() throws {
        let fixture = try LibraryFixture()
        let index = try DocumentIndex.scan(fixture.library)
        let root = index.items(in: "", order: .byName).map(\.id)
        #expect(
            root
                == ["Café #1.SKETCH", "Looked through", "My Drawing.sketch", "Pkg 100%.sketch", "Stack 📚"].map
            { name in
                name == "Looked through" ? "Plain folder/deep/Looked through.sketch" : name
            })
        let stack = try #require(index.item("Stack 📚"))
        #expect(stack.kind == .group)
        #expect(stack.documentCount == 2)
        #expect(Set(stack.previewIDs) == ["Stack 📚/In the stack.sketch", "Stack 📚/Nested/Deeper.sketch"])
        #expect(
            index.items(in: "Stack 📚", order: .byName).map(\.id) == [
                "Stack 📚/In the stack.sketch", "Stack 📚/Nested",
            ])
        #expect(
            index.items(in: "Stack 📚/Nested", order: .byName).map(\.id) == ["Stack 📚/Nested/Deeper.sketch"])
        #expect(index.documentCount == 6)
    }

    @Test("a package document is one item whose size and date are those of its contents")
    func packages() throws {
        let fixture = try LibraryFixture()
        for inner in [
            "Pkg 100%.sketch", "Pkg 100%.sketch/QuickLook", "Pkg 100%.sketch/QuickLook/Thumbnail.png",
        ] {
            fixture.setModified(inner, 0)
        }
        fixture.setModified("Pkg 100%.sketch/data.json", 5_000)
        let item = try #require(try DocumentIndex.scan(fixture.library).item("Pkg 100%.sketch"))
        #expect(item.isPackage)
        #expect(item.kind == .document)
        #expect(item.size == Int64(LibraryFixture.pngBytes.count + "{\"strokes\": []}".utf8.count))
        #expect(item.modified.seconds == 1_577_836_800 + 5_000)
        #expect(item.displayName == "Pkg 100%")
    }

    @Test("a group's date is its newest document's, its size their sum")
    func groupFigures() throws {
        let fixture = try LibraryFixture()
        fixture.setModified("Stack 📚", 0)
        fixture.setModified("Stack 📚/In the stack.sketch", 100)
        fixture.setModified("Stack 📚/Nested/Deeper.sketch", 900)
        let stack = try #require(try DocumentIndex.scan(fixture.library).item("Stack 📚"))
        #expect(stack.modified.seconds == 1_577_836_800 + 900)
        #expect(stack.size == 2)
        #expect(stack.previewIDs.first == "Stack 📚/Nested/Deeper.sketch")
    }

    @Test("a library can be described by the content types an app registers")
    func libraryFromContentTypes() throws {
        var registry = ContentTypeRegistry.standard
        try registry.register(
            ContentTypeDeclaration(
                identifier: "com.example.sketch", conformsTo: ["com.apple.package"],
                filenameExtensions: ["sketch", "sketchbook"], description: "Sketch"))
        let type = try #require(registry["com.example.sketch"])
        let library = DocumentLibrary(root: "/tmp", contentTypes: [type])
        #expect(library.documentExtensions == ["sketch", "sketchbook"])
        #expect(library.isDocumentName("Old.SketchBook"))
        #expect(!library.isDocumentName(".hidden.sketch"))
        #expect(!library.isDocumentName("sketch"))
        #expect(library.id(ofPath: "/tmp/a/b.sketch") == "a/b.sketch")
        #expect(library.id(ofPath: "/tmpx/b.sketch") == nil)
    }

    @Test("a missing folder is a clear error, not an empty browser")
    func missingRoot() {
        let library = DocumentLibrary(root: "/nonexistent/browsey-documents", documentExtensions: ["sketch"])
        #expect(throws: DocumentBrowserError.self) { try DocumentIndex.scan(library) }
        do {
            _ = try DocumentIndex.scan(library)
        } catch {
            #expect(error.code == .notFound)
        }
    }

    @Test(
        "a change is applied where it happened: created, removed, renamed folders, a new group marker, a change inside a package"
    )
    func incrementalChanges() throws {
        let fixture = try LibraryFixture()
        var index = try DocumentIndex.scan(fixture.library)

        try fixture.folder.file("New one.sketch", "n")
        var touched = index.apply(DirectoryChanges(paths: [fixture.path("New one.sketch")]))
        #expect(touched == ["New one.sketch"])
        #expect(index.item("New one.sketch") != nil)

        try FileManager.default.removeItem(atPath: fixture.path("My Drawing.sketch"))
        touched = index.apply(DirectoryChanges(paths: [fixture.path("My Drawing.sketch")]))
        #expect(touched == ["My Drawing.sketch"])
        #expect(index.item("My Drawing.sketch") == nil)

        // A folder renamed: the old name's documents go, the new name's come.
        try FileManager.default.moveItem(
            atPath: fixture.path("Plain folder"), toPath: fixture.path("Moved folder"))
        touched = index.apply(
            DirectoryChanges(paths: [fixture.path("Moved folder"), fixture.path("Plain folder")]))
        #expect(
            touched == ["Plain folder/deep/Looked through.sketch", "Moved folder/deep/Looked through.sketch"])
        #expect(index.item("Moved folder/deep/Looked through.sketch") != nil)

        // The marker makes the folder a group.
        try fixture.folder.file("Moved folder/deep/.browsey-group", "")
        index.apply(DirectoryChanges(paths: [fixture.path("Moved folder/deep/.browsey-group")]))
        #expect(index.isGroup("Moved folder/deep"))
        #expect(index.items(in: "", order: .byName).map(\.id).contains("Moved folder/deep"))

        // A file rewritten inside a package is a change of the package document.
        try fixture.folder.file("Pkg 100%.sketch/data.json", "{\"strokes\": [1, 2, 3]}")
        touched = index.apply(DirectoryChanges(paths: [fixture.path("Pkg 100%.sketch/data.json")]))
        #expect(touched == ["Pkg 100%.sketch"])
        #expect(index.item("Pkg 100%.sketch")?.size == Int64(LibraryFixture.pngBytes.count + 22))

        // A folder replaced by a file of its name, reported as one path: its documents go.
        try FileManager.default.removeItem(atPath: fixture.path("Moved folder"))
        try fixture.folder.file("Moved folder", "now a file")
        touched = index.apply(DirectoryChanges(paths: [fixture.path("Moved folder")]))
        #expect(touched.contains("Moved folder/deep/Looked through.sketch"))
        #expect(index.item("Moved folder/deep/Looked through.sketch") == nil)
        #expect(!index.isGroup("Moved folder/deep"))

        // Inside an excluded folder, and outside the root, nothing changes.
        try fixture.folder.file("Inbox/later.sketch", "x")
        touched = index.apply(DirectoryChanges(paths: [fixture.path("Inbox/later.sketch"), "/etc/passwd"]))
        #expect(touched.isEmpty)
    }

    @Test("a batch that may have missed changes reads everything again")
    func rescanWhenAsked() throws {
        let fixture = try LibraryFixture()
        var index = try DocumentIndex.scan(fixture.library)
        try fixture.folder.file("Stack 📚/Nested/Unreported.sketch", "x")
        index.apply(DirectoryChanges(paths: [], needsRescan: true))
        #expect(index.item("Stack 📚/Nested/Unreported.sketch") != nil)
    }

    @Test(
        "items sort by name as people expect (A first), by date (newest first) and by size (largest first), or the other way when asked"
    )
    func sorting() throws {
        let fixture = try LibraryFixture(populated: false)
        try fixture.folder.file("Untitled 10.sketch", "1")
        try fixture.folder.file("untitled 2.sketch", "333")
        try fixture.folder.file("Élan.sketch", "22")
        fixture.setModified("Untitled 10.sketch", 30)
        fixture.setModified("untitled 2.sketch", 10)
        fixture.setModified("Élan.sketch", 20)
        let index = try DocumentIndex.scan(fixture.library)
        #expect(
            index.items(in: "", order: .byName).map(\.displayName) == ["Élan", "untitled 2", "Untitled 10"])
        #expect(
            index.items(in: "", order: .newestFirst).map(\.displayName) == [
                "Untitled 10", "Élan", "untitled 2",
            ])
        #expect(
            index.items(in: "", order: DocumentSortOrder(.size)).map(\.displayName) == [
                "untitled 2", "Élan", "Untitled 10",
            ])
        #expect(
            index.items(in: "", order: DocumentSortOrder(.size, ascending: true)).map(\.displayName) == [
                "Untitled 10", "Élan", "untitled 2",
            ])
        #expect(
            index.items(in: "", order: DocumentSortOrder(.name, ascending: false)).map(\.displayName) == [
                "Untitled 10", "untitled 2", "Élan",
            ])
    }
}
