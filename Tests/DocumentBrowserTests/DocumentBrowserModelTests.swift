import DocumentBrowser
import FileTree
import Foundation
import Testing

@Suite("The document browser model")
@MainActor
struct DocumentBrowserModelTests {
    let fixture: LibraryFixture
    let clock = ImmediateClock()
    let host: HostRecorder
    let model: DocumentBrowserModel

    init() async throws {
        fixture = try LibraryFixture()
        host = HostRecorder(clock: clock)
        model = DocumentBrowserModel(library: fixture.library, sortOrder: .byName, clock: clock)
        model.actions = host.actions
        host.model = model
        await model.load()
    }

    private var shown: [String] { model.items.map(\.id) }

    @Test(
        "it loads the folder's documents and groups, off the main actor, and reports a folder it cannot read")
    func loading() async throws {
        #expect(
            shown == [
                "Café #1.SKETCH", "Plain folder/deep/Looked through.sketch", "My Drawing.sketch",
                "Pkg 100%.sketch", "Stack 📚",
            ])
        #expect(model.documentCount == 6)
        #expect(model.loadError == nil)
        let broken = DocumentBrowserModel(
            library: DocumentLibrary(root: fixture.path("not there"), documentExtensions: ["sketch"]))
        await broken.load()
        #expect(broken.loadError?.code == .notFound)
        #expect(broken.items.isEmpty)
    }

    @Test(
        "it follows the folder live: a document written, renamed or removed by someone else shows within a moment"
    )
    func liveRescan() async throws {
        try model.startMonitoring()
        defer { model.stopMonitoring() }
        try fixture.folder.file("From elsewhere.sketch", "x")
        try await waitUntil { shown.contains("From elsewhere.sketch") }
        try FileManager.default.moveItem(
            atPath: fixture.path("From elsewhere.sketch"), toPath: fixture.path("Renamed.sketch"))
        try await waitUntil { shown.contains("Renamed.sketch") && !shown.contains("From elsewhere.sketch") }
        try FileManager.default.removeItem(atPath: fixture.path("Stack 📚"))
        try await waitUntil { !shown.contains("Stack 📚") }
        #expect(model.documentCount == 5)
    }

    @Test("selection: enter, toggle, select all, leave; a toggle outside selection mode enters it")
    func selectionFlow() {
        model.toggleSelection("My Drawing.sketch")
        #expect(model.isSelecting)
        #expect(model.selection == ["My Drawing.sketch"])
        model.toggleSelection("Stack 📚")
        model.toggleSelection("My Drawing.sketch")
        #expect(model.selection == ["Stack 📚"])
        model.toggleSelection("not shown.sketch")
        #expect(model.selection == ["Stack 📚"])
        model.selectAll()
        #expect(model.isAllSelected)
        model.leaveSelection()
        #expect(!model.isSelecting)
        #expect(model.selection.isEmpty)
    }

    @Test("duplicating and deleting the selection act on exactly the selected items and leave selection mode")
    func duplicateAndDeleteSelection() async throws {
        model.enterSelection()
        model.toggleSelection("My Drawing.sketch")
        model.toggleSelection("Pkg 100%.sketch")
        let copies = try await model.duplicateSelection()
        #expect(Set(copies) == ["My Drawing (copy).sketch", "Pkg 100% (copy).sketch"])
        #expect(!model.isSelecting)
        #expect(try fixture.folder.text("My Drawing (copy).sketch") == "one")
        #expect(fixture.folder.exists("Pkg 100% (copy).sketch/QuickLook/Thumbnail.png"))
        #expect(shown.contains("Pkg 100% (copy).sketch"))

        model.toggleSelection("My Drawing (copy).sketch")
        model.toggleSelection("Stack 📚")
        try await model.deleteSelection()
        #expect(!fixture.folder.exists("My Drawing (copy).sketch"))
        #expect(!fixture.folder.exists("Stack 📚"))
        #expect(fixture.folder.exists("My Drawing.sketch"))
        #expect(!shown.contains("Stack 📚"))
        #expect(model.selection.isEmpty)
    }

    @Test(
        "a new document gets the first free name, is written by the host, revealed, then opened after the animation"
    )
    func newDocumentSequence() async throws {
        try fixture.folder.file("Untitled.sketch", "taken")
        await model.load()
        let item = try await model.newDocument()
        #expect(item.id == "Untitled 1.sketch")
        #expect(host.created == [fixture.path("Untitled 1.sketch")])
        #expect(model.revealedItemID == "Untitled 1.sketch")
        #expect(clock.sleeps == [model.timing.revealDelay, model.timing.openingDelay])
        let opened = try #require(host.opened.first)
        #expect(opened.id == "Untitled 1.sketch")
        #expect(opened.openingID == "Untitled 1.sketch")
        #expect(opened.at == model.timing.revealDelay + model.timing.openingDelay)
        #expect(model.openingItemID == nil)
        #expect(shown.contains("Untitled 1.sketch"))

        let next = try await model.newDocument()
        #expect(next.id == "Untitled 2.sketch")
    }

    @Test("a new document inside a group is made in the group")
    func newDocumentInGroup() async throws {
        model.enter("Stack 📚")
        let item = try await model.newDocument()
        #expect(item.id == "Stack 📚/Untitled.sketch")
        #expect(model.location == "Stack 📚")
        #expect(shown.contains("Stack 📚/Untitled.sketch"))
    }

    @Test("when the host writes nothing, the new-document sequence ends with a clear error and opens nothing")
    func newDocumentNotWritten() async throws {
        host.writesDocuments = false
        await #expect(throws: DocumentBrowserError.self) { try await model.newDocument() }
        do {
            try await model.newDocument()
        } catch {
            #expect(error.code == .notCreated)
        }
        #expect(host.opened.isEmpty)
        #expect(model.revealedItemID == nil)
    }

    @Test("renaming keeps the extension and never replaces; bad names are refused")
    func renaming() async throws {
        let renamed = try await model.rename("My Drawing.sketch", to: "  Crème #2 %  ")
        #expect(renamed.id == "Crème #2 %.sketch")
        #expect(try fixture.folder.text("Crème #2 %.sketch") == "one")
        #expect(shown.contains("Crème #2 %.sketch") && !shown.contains("My Drawing.sketch"))

        await #expect(throws: DocumentBrowserError.self) {
            try await model.rename("Crème #2 %.sketch", to: "Pkg 100%")
        }
        do {
            try await model.rename("Crème #2 %.sketch", to: "Pkg 100%")
        } catch {
            #expect(error.code == .nameTaken)
        }
        #expect(fixture.folder.exists("Pkg 100%.sketch/data.json"))
        for bad in ["", "   ", "a/b", ".hidden", "..", "nul\u{0}byte"] {
            do {
                try await model.rename("Crème #2 %.sketch", to: bad)
                Issue.record("\(bad.debugDescription) was accepted")
            } catch {
                #expect(error.code == .invalidName)
            }
        }
        for hiding in ["Inbox", "Trip.sketch"] {
            do {
                try await model.rename("Stack 📚", to: hiding)
                Issue.record("a group was renamed \(hiding), out of sight")
            } catch {
                #expect(error.code == .invalidName)
            }
        }
        let group = try await model.rename("Stack 📚", to: "Sketchbook")
        #expect(group.kind == .group)
        #expect(group.id == "Sketchbook")
    }

    @Test(
        "import copies documents in under free names and refuses, before copying anything, what is not a document"
    )
    func importing() async throws {
        let outside = try LibraryFixture(populated: false)
        try outside.folder.file("My Drawing.sketch", "from outside")
        try outside.folder.file("Other.sketch", "other")
        try outside.folder.file("photo.jpg", "jpg")
        do {
            try await model.importDocuments(from: [outside.path("Other.sketch"), outside.path("photo.jpg")])
            Issue.record("a photo was imported")
        } catch {
            #expect(error.code == .notADocument)
            #expect(error.message.contains("photo.jpg"))
        }
        #expect(!fixture.folder.exists("Other.sketch"))

        let ids = try await model.importDocuments(from: [
            outside.path("My Drawing.sketch"), outside.path("Other.sketch"),
        ])
        #expect(ids == ["My Drawing 1.sketch", "Other.sketch"])
        #expect(try fixture.folder.text("My Drawing.sketch") == "one")
        #expect(try fixture.folder.text("My Drawing 1.sketch") == "from outside")
        #expect(model.revealedItemID == "My Drawing 1.sketch")
        #expect(try outside.folder.text("Other.sketch") == "other")
    }

    @Test(
        "identifiers that are not items shown (traversals, absolute paths, excluded folders) are refused and touch nothing"
    )
    func hostileIdentifiers() async throws {
        let outside = try LibraryFixture(populated: false)
        try outside.folder.file("victim.sketch", "keep me")
        let outsideName = try #require(outside.folder.path.split(separator: "/").last)
        let relative = "../\(outsideName)/victim.sketch"
        for id in [
            relative, outside.path("victim.sketch"), "Inbox/excluded.sketch", ".hidden/secret.sketch", "",
        ] {
            do {
                try await model.delete([id])
                Issue.record("\(id) was deleted")
            } catch {
                #expect(error.code == .notFound)
            }
            await #expect(throws: DocumentBrowserError.self) { try await model.rename(id, to: "x") }
            await #expect(throws: DocumentBrowserError.self) { try await model.duplicate([id]) }
        }
        #expect(try outside.folder.text("victim.sketch") == "keep me")
        #expect(
            fixture.folder.exists("Inbox/excluded.sketch") && fixture.folder.exists(".hidden/secret.sketch"))
    }

    @Test("the sort order can change at any time")
    func sortChanges() throws {
        fixture.setModified("My Drawing.sketch", 10)
        model.sortOrder = DocumentSortOrder(.size)
        #expect(model.items.first?.id == "Pkg 100%.sketch")
        model.sortOrder = .byName
        #expect(model.items.first?.id == "Café #1.SKETCH")
    }

    @Test("groups: drop one document on another to make one, enter and leave it, move in and out, ungroup")
    func groups() async throws {
        let group = try await model.makeGroup(dropping: "Café #1.SKETCH", onto: "My Drawing.sketch")
        #expect(group == "Group")
        #expect(fixture.folder.exists("Group/.browsey-group"))
        #expect(shown.contains("Group") && !shown.contains("My Drawing.sketch"))
        #expect(model.item("Group")?.documentCount == 2)

        // Dropping on a group moves into it.
        _ = try await model.makeGroup(dropping: "Pkg 100%.sketch", onto: "Group")
        #expect(model.item("Group")?.documentCount == 3)

        model.enter("Group")
        #expect(model.location == "Group")
        #expect(shown == ["Group/Café #1.SKETCH", "Group/My Drawing.sketch", "Group/Pkg 100%.sketch"])
        #expect(model.groupPath.map(\.id) == ["Group"])

        try await model.moveOutOfGroup(["Group/Pkg 100%.sketch"])
        #expect(fixture.folder.exists("Pkg 100%.sketch/data.json"))
        #expect(shown == ["Group/Café #1.SKETCH", "Group/My Drawing.sketch"])

        model.leave()
        #expect(model.location == "")
        try await model.move(["Pkg 100%.sketch"], intoGroup: "Stack 📚")
        #expect(model.item("Stack 📚")?.documentCount == 3)

        try await model.ungroup("Group")
        #expect(!fixture.folder.exists("Group"))
        #expect(shown.contains("My Drawing.sketch") && shown.contains("Café #1.SKETCH"))
    }

    @Test("moving an item where it already is changes nothing: into its own group, out of the root")
    func movesInPlace() async throws {
        try await model.move(["Stack 📚/In the stack.sketch"], intoGroup: "Stack 📚")
        try await model.moveOutOfGroup(["My Drawing.sketch"])
        #expect(fixture.folder.exists("Stack 📚/In the stack.sketch"))
        #expect(fixture.folder.exists("My Drawing.sketch"))
        #expect(
            try fixture.folder.names(in: "Stack 📚").sorted() == [
                ".browsey-group", "In the stack.sketch", "Nested",
            ])

        // A document in a plain folder inside a group is in that group: moving it out takes it
        // to the root, moving it in leaves it be.
        try fixture.folder.file("Stack 📚/Plain/Inside.sketch", "p")
        await model.load()
        try await model.move(["Stack 📚/Plain/Inside.sketch"], intoGroup: "Stack 📚")
        #expect(fixture.folder.exists("Stack 📚/Plain/Inside.sketch"))
        try await model.moveOutOfGroup(["Stack 📚/Plain/Inside.sketch"])
        #expect(fixture.folder.exists("Inside.sketch"))
    }

    @Test("moving into a group where the name is taken keeps both, under a free name")
    func moveKeepsBoth() async throws {
        try fixture.folder.file("Stack 📚/My Drawing.sketch", "already here")
        await model.load()
        try await model.move(["My Drawing.sketch"], intoGroup: "Stack 📚")
        #expect(try fixture.folder.text("Stack 📚/My Drawing.sketch") == "already here")
        #expect(try fixture.folder.text("Stack 📚/My Drawing 1.sketch") == "one")
    }

    @Test("grouping the selection, and a group removed while inside it sends the browser back up")
    func groupSelectionAndVanishingGroup() async throws {
        model.toggleSelection("My Drawing.sketch")
        model.toggleSelection("Café #1.SKETCH")
        let group = try await model.groupSelection()
        #expect(!model.isSelecting)
        model.enter(group)
        #expect(model.items.count == 2)
        try FileManager.default.removeItem(atPath: fixture.path(group))
        await model.load()
        #expect(model.location == "")
    }

    @Test(
        "opening a document publishes it, waits for the animation, then calls the host; a group is entered instead"
    )
    func openingChannel() async throws {
        await model.open("My Drawing.sketch")
        #expect(host.opened.map(\.id) == ["My Drawing.sketch"])
        #expect(host.opened.first?.openingID == "My Drawing.sketch")
        #expect(clock.sleeps == [model.timing.openingDelay])
        #expect(model.openingItemID == nil)
        await model.open("Stack 📚")
        #expect(model.location == "Stack 📚")
        #expect(host.opened.count == 1)
        model.showSettings()
        model.showImportPicker()
        #expect(host.settingsShown == 1 && host.pickerShown == 1)
    }

    @Test("an opening cancelled during the animation opens nothing")
    func openingCancelled() async throws {
        let slow = DocumentBrowserModel(
            library: fixture.library, actions: host.actions,
            timing: DocumentBrowserTiming(openingDelay: .seconds(60)))
        await slow.load()
        let opening = Task { await slow.open("My Drawing.sketch") }
        try await waitUntil { slow.openingItemID == "My Drawing.sketch" }
        opening.cancel()
        await opening.value
        #expect(host.opened.isEmpty)
        #expect(slow.openingItemID == nil)
    }

    /// Polls (on the main actor, letting other work run) until `condition` holds; fails after
    /// 10 s, which only a hang reaches.
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
