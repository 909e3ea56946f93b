import DocumentBrowser
import FileTree
import Foundation
import TestSupport
import Testing

@Suite("The document store")
@MainActor
struct DocumentStoreTests {
    let folder: TemporaryFolder
    let clock = ImmediateClock()

    init() throws {
        folder = try TemporaryFolder(prefix: "browsey-store")
        try folder.file("Notes #1 %.txt", "first line")
        try folder.file("Café sketch.drawing/strokes.txt", "a\nb")
    }

    private func inode(_ relative: String) throws -> UInt64 {
        try #require(try DirectoryReader().entry(at: folder.path(relative)).status?.inode)
    }

    @Test(
        "a document opens with its file URL and editable; a new one has no URL until it is saved somewhere free"
    )
    func configuration() async throws {
        let note = try await DocumentStore<Note>.open(at: folder.path("Notes #1 %.txt"), clock: clock)
        #expect(note.document.text == "first line")
        #expect(note.configuration.fileURL?.lastPathComponent == "Notes #1 %.txt")
        #expect(note.configuration.isEditable)

        let fresh = DocumentStore(newDocument: Note(text: "new"), contentType: .plainText, clock: clock)
        #expect(fresh.configuration.fileURL == nil)
        await #expect(throws: DocumentBrowserError.self) { try await fresh.save() }
        do {
            try await fresh.save(to: folder.path("Notes #1 %.txt"))
            Issue.record("an existing file was replaced")
        } catch {
            #expect(error.code == .nameTaken)
        }
        #expect(try folder.text("Notes #1 %.txt") == "first line")
        try await fresh.save(to: folder.path("Fresh ü.txt"))
        #expect(fresh.configuration.fileURL?.lastPathComponent == "Fresh ü.txt")
        #expect(try folder.text("Fresh ü.txt") == "new")
    }

    @Test(
        "saving a file puts a new, flushed file in place of the old; saving a package swaps the whole folder")
    func atomicSaves() async throws {
        let note = try await DocumentStore<Note>.open(at: folder.path("Notes #1 %.txt"), clock: clock)
        let before = try inode("Notes #1 %.txt")
        note.edit { $0.text = "second" }
        try await note.save()
        #expect(try folder.text("Notes #1 %.txt") == "second")
        #expect(try inode("Notes #1 %.txt") != before)
        #expect(!note.hasUnsavedChanges)

        try folder.setMode("Café sketch.drawing", 0o700)
        let sketch = try await DocumentStore<Sketch>.open(
            at: folder.path("Café sketch.drawing"), clock: clock)
        sketch.edit { $0.strokes.append("c") }
        try await sketch.save()
        #expect(
            try DirectoryReader().entry(at: folder.path("Café sketch.drawing")).permissions
                == FilePermissions(rawValue: 0o700),
            "a private package stays private")
        #expect(try folder.text("Café sketch.drawing/strokes.txt") == "a\nb\nc")
        #expect(folder.exists("Café sketch.drawing/QuickLook/Thumbnail.png"))
        // A part the new version does not have is gone: the folder was replaced, not merged.
        sketch.edit { $0.strokes = [] }
        try await sketch.save()
        #expect(!folder.exists("Café sketch.drawing/QuickLook"))
        #expect(try folder.names().filter { $0.hasPrefix(".") }.isEmpty)
        #expect(sketch.saveCount == 2)
    }

    @Test("edits are autosaved once after the pause, not once per edit")
    func autosaveDebounce() async throws {
        let note = try await DocumentStore<Note>.open(
            at: folder.path("Notes #1 %.txt"), autosaveDelay: .seconds(2), clock: clock)
        note.edit { $0.text = "one" }
        note.edit { $0.text += " two" }
        note.edit { $0.text += " three" }
        #expect(note.hasUnsavedChanges)
        let deadline = ContinuousClock.now + .seconds(10)
        while note.saveCount == 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(note.saveCount == 1)
        #expect(try folder.text("Notes #1 %.txt") == "one two three")
        #expect(!note.hasUnsavedChanges)
        #expect(clock.sleeps.allSatisfy { $0 == .seconds(2) })
    }

    @Test(
        "a file changed on disk since it was opened is never overwritten: the save says so, and the user keeps theirs or takes the other"
    )
    func conflicts() async throws {
        let note = try await DocumentStore<Note>.open(at: folder.path("Notes #1 %.txt"), clock: clock)
        try folder.file("Notes #1 %.txt", "written by someone else")
        note.edit { $0.text = "mine" }
        await note.autosave()
        #expect(note.conflict?.code == .changedOnDisk)
        #expect(note.lastSaveError?.code == .changedOnDisk)
        #expect(try folder.text("Notes #1 %.txt") == "written by someone else")
        do {
            try await note.save()
            Issue.record("the save overwrote the other version")
        } catch {
            #expect(error.code == .changedOnDisk)
        }

        try await note.revert()
        #expect(note.document.text == "written by someone else")
        #expect(note.conflict == nil && !note.hasUnsavedChanges)

        try folder.file("Notes #1 %.txt", "changed again")
        note.edit { $0.text = "mine after all" }
        #expect(await note.checkDisk())
        #expect(note.conflict != nil)
        try await note.overwrite()
        #expect(try folder.text("Notes #1 %.txt") == "mine after all")
        #expect(note.conflict == nil)
    }

    @Test("without edits here, a change on disk is simply read in")
    func reloadWithoutEdits() async throws {
        let sketch = try await DocumentStore<Sketch>.open(
            at: folder.path("Café sketch.drawing"), clock: clock)
        #expect(await !sketch.checkDisk())
        try folder.file("Café sketch.drawing/strokes.txt", "x\ny\nz")
        #expect(await sketch.checkDisk())
        #expect(sketch.document.strokes == ["x", "y", "z"])
        #expect(sketch.conflict == nil)
    }

    @Test("read-only documents: a locked file, a locked folder, or opened read-only; nothing is saved")
    func readOnly() async throws {
        try folder.file("Locked.txt", "locked", mode: 0o444)
        let locked = try await DocumentStore<Note>.open(at: folder.path("Locked.txt"), clock: clock)
        #expect(!locked.configuration.isEditable)
        locked.edit { $0.text = "changed" }
        do {
            try await locked.save()
            Issue.record("a read-only file was saved")
        } catch {
            #expect(error.code == .readOnly)
        }
        await locked.autosave()
        #expect(try folder.text("Locked.txt") == "locked")

        try folder.file("Shelf/In a locked folder.txt", "x")
        try folder.setMode("Shelf", 0o555)
        let shelved = try await DocumentStore<Note>.open(
            at: folder.path("Shelf/In a locked folder.txt"), clock: clock)
        #expect(!shelved.isEditable)

        let asked = try await DocumentStore<Note>.open(
            at: folder.path("Notes #1 %.txt"), readOnly: true, clock: clock)
        #expect(!asked.isEditable)
    }

    @Test("opening fails clearly: missing file, a type the document does not read, contents it refuses")
    func openingErrors() async throws {
        try folder.file("photo.jpg", "jpg")
        try folder.file("bad.txt", [0xFF, 0xFE, 0x00])
        let cases: [(String, DocumentBrowserError.Code)] = [
            ("missing.txt", .notFound), ("photo.jpg", .notADocument), ("bad.txt", .unreadable),
        ]
        for (name, code) in cases {
            do {
                _ = try await DocumentStore<Note>.open(at: folder.path(name), clock: clock)
                Issue.record("\(name) opened")
            } catch {
                #expect(error.code == code, "\(name)")
            }
        }
    }

    @Test(
        "a document missing after a crash between moving the old version aside and the new one in is put back from what was left"
    )
    func restoredAfterCrash() async throws {
        try FileManager.default.moveItem(
            atPath: folder.path("Café sketch.drawing"),
            toPath: folder.path(".Café sketch.drawing.browsey-aside"))
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, folder.path(".Café sketch.drawing.browsey-aside"), &times, 0)
        let sketch = try await DocumentStore<Sketch>.open(
            at: folder.path("Café sketch.drawing"), clock: clock)
        #expect(sketch.document.strokes == ["a", "b"])
        #expect(!folder.exists(".Café sketch.drawing.browsey-aside"))
    }

    @Test("what an interrupted save left beside a document is removed when it is opened, once a minute old")
    func staleSaves() async throws {
        try folder.file(".Notes #1 %.txt.browsey-old", "half")
        try folder.file(".Notes #1 %.txt.browsey-recent", "in progress")
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, folder.path(".Notes #1 %.txt.browsey-old"), &times, 0)
        _ = try await DocumentStore<Note>.open(at: folder.path("Notes #1 %.txt"), clock: clock)
        #expect(!folder.exists(".Notes #1 %.txt.browsey-old"))
        #expect(folder.exists(".Notes #1 %.txt.browsey-recent"))
    }
}
