import FileTree
import Foundation
import TestSupport
import Testing

@testable import SearchIndex

@Suite("The index is never stale for long")
struct FreshnessTests {
    @Test("a file created, renamed or deleted is found, or gone, promptly")
    func changesReachSearchWithinASecond() async throws {
        let fixture = try IndexFixture()
        let index = fixture.start()
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(IndexFixture.paths(index, "résumé") == ["/docs/Résumé final.pdf"])

        try fixture.folder.file("docs/quarterly zebra.txt", "z")
        let created = await IndexFixture.eventually {
            IndexFixture.paths(index, "zebra") == ["/docs/quarterly zebra.txt"]
        }
        #expect(created != nil, "a new file is found")

        try FileManager.default.moveItem(
            atPath: fixture.folder.path("docs/quarterly zebra.txt"),
            toPath: fixture.folder.path("code/zebra #2.txt"))
        let renamed = await IndexFixture.eventually {
            IndexFixture.paths(index, "zebra") == ["/code/zebra #2.txt"]
        }
        #expect(renamed != nil, "a moved file is found at its new place only")

        try FileManager.default.removeItem(atPath: fixture.folder.path("code/zebra #2.txt"))
        let deleted = await IndexFixture.eventually { IndexFixture.paths(index, "zebra").isEmpty }
        #expect(deleted != nil, "a deleted file is gone")
    }

    @Test("the index is current once its watcher's changes are applied, and not from a change until then")
    func currentOnlyWhenProved() async throws {
        let fixture = try IndexFixture()
        // A long coalescing keeps a change out of the catalog for a while, so that the test sees
        // the index between the change and its batch.
        let watcher = try DirectoryWatcher(path: fixture.folder.path, options: .init(coalescing: .seconds(2)))
        let index = await fixture.ready(following: watcher)
        defer {
            index.stop()
            watcher.stop()
        }
        #expect(await IndexFixture.eventually { index.isCurrent } != nil, "quiet and ready: current")
        let before = watcher.changesReported
        try fixture.folder.file("docs/zebra.txt", "z")
        #expect(!index.isCurrent, "a change the catalog does not hold yet")
        let handled = await IndexFixture.eventually { watcher.isCaughtUp && watcher.changesReported > before }
        #expect(handled != nil)
        #expect(!index.isCurrent, "the watcher has it, the catalog not yet")
        #expect(IndexFixture.paths(index, "zebra").isEmpty)
        let found = await IndexFixture.eventually {
            IndexFixture.paths(index, "zebra") == ["/docs/zebra.txt"]
        }
        #expect(found != nil)
        #expect(await IndexFixture.eventually { index.isCurrent } != nil, "current again once applied")
    }

    @Test("an index whose watcher fell back to rescans is never said to be current")
    func neverCurrentWhilePolling() async throws {
        let fixture = try IndexFixture()
        let watcher = try DirectoryWatcher(
            path: fixture.folder.path, options: .init(pollingInterval: .milliseconds(100), maximumWatches: 0))
        #expect(watcher.mode == .polling)
        let index = await fixture.ready(following: watcher)
        defer {
            index.stop()
            watcher.stop()
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(index.phase == .ready && !index.isCurrent)
    }

    @Test("a renamed folder takes everything below it along")
    func folderRenames() async throws {
        let fixture = try IndexFixture()
        let index = fixture.start()
        defer { index.stop() }
        await index.waitUntilReady()
        try FileManager.default.moveItem(
            atPath: fixture.folder.path("docs/deep"), toPath: fixture.folder.path("code/shallow 100%"))
        let moved = await IndexFixture.eventually {
            IndexFixture.paths(index, "still deeper") == ["/code/shallow 100%/er/still deeper.txt"]
        }
        #expect(moved != nil)
        try fixture.folder.file("code/shallow 100%/er/added later.txt", "x")
        let added = await IndexFixture.eventually {
            IndexFixture.paths(index, "added later") == ["/code/shallow 100%/er/added later.txt"]
        }
        #expect(added != nil, "the moved folder is still watched")
    }

    @Test("a folder made with files already in it is searchable whole")
    func newFoldersComeWhole() async throws {
        let fixture = try IndexFixture()
        let index = fixture.start()
        defer { index.stop() }
        await index.waitUntilReady()
        let staging = try TemporaryFolder()
        try staging.file("batch/one/alpha-unique.txt", "a")
        try staging.file("batch/two/beta-unique.txt", "b")
        try FileManager.default.moveItem(
            atPath: staging.path("batch"), toPath: fixture.folder.path("docs/batch"))
        let found = await IndexFixture.eventually {
            Set(IndexFixture.paths(index, "unique")) == [
                "/docs/batch/one/alpha-unique.txt", "/docs/batch/two/beta-unique.txt",
            ]
        }
        #expect(found != nil, "found: \(IndexFixture.paths(index, "unique"))")
    }
}

@Suite("The index file is reused, reconciled, and rebuilt when damaged")
struct PersistenceTests {
    @Test("a second start answers from the saved file and catches up with changes made while it was down")
    func restartReusesAndReconciles() async throws {
        let fixture = try IndexFixture()
        let first = fixture.start()
        await first.waitUntilReady()
        await first.stopAndWait()
        let saved = try IndexStore(path: fixture.storePath, root: fixture.folder.path).load()
        #expect(saved.entryCount == first.entryCount, "every entry was saved")
        #expect(
            saved.record(at: "/docs")?.entries.map(\.name).sorted() == [
                "100% done.txt", "Résumé final.pdf", "deep", "notes #1.md",
            ])

        try fixture.folder.file("docs/written while down.txt", "w")
        try FileManager.default.removeItem(atPath: fixture.folder.path("code/main.swift"))
        let second = fixture.start()
        defer { second.stop() }
        await second.waitUntilReady()
        #expect(IndexFixture.paths(second, "while down") == ["/docs/written while down.txt"])
        #expect(IndexFixture.paths(second, "main.swift").isEmpty)
        let reconciled = try IndexStore(path: fixture.storePath, root: fixture.folder.path).load()
        #expect(
            reconciled.record(at: "/docs")?.entries.contains { $0.name == "written while down.txt" } == true)
        #expect(reconciled.record(at: "/code")?.entries.contains { $0.name == "main.swift" } != true)
    }

    @Test("a corrupt index file is rebuilt, without a crash")
    func corruptFileIsRebuilt() async throws {
        let fixture = try IndexFixture()
        try fixture.cache.file("index.sqlite", Array(repeating: UInt8(0x5A), count: 8192))
        let index = fixture.start()
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(IndexFixture.paths(index, "notes") == ["/docs/notes #1.md"])
        let rebuilt = try IndexStore(path: fixture.storePath, root: fixture.folder.path).load()
        #expect(rebuilt.entryCount == index.entryCount)
    }

    @Test("a deleted index file is made again at the next start, and a running index goes on without it")
    func deletedFileIsMadeAgain() async throws {
        let fixture = try IndexFixture()
        let first = fixture.start()
        await first.waitUntilReady()
        for suffix in ["", "-wal", "-shm"] { unlink(fixture.storePath + suffix) }
        try fixture.folder.file("docs/after delete.txt", "x")
        let seen = await IndexFixture.eventually {
            IndexFixture.paths(first, "after delete") == ["/docs/after delete.txt"]
        }
        #expect(seen != nil)
        await first.stopAndWait()
        let second = fixture.start()
        defer { second.stop() }
        await second.waitUntilReady()
        #expect(FileManager.default.fileExists(atPath: fixture.storePath))
        #expect(IndexFixture.paths(second, "after delete") == ["/docs/after delete.txt"])
    }

    @Test("an index kept in memory writes no file")
    func memoryOnly() async throws {
        let fixture = try IndexFixture()
        let index = fixture.start(stored: false)
        defer { index.stop() }
        await index.waitUntilReady()
        #expect(IndexFixture.paths(index, "main") == ["/code/main.swift"])
        #expect(try fixture.cache.names().isEmpty)
    }
}
