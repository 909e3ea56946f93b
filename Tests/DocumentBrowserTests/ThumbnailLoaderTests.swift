import DocumentBrowser
import FileTree
import Foundation
import Synchronization
import Testing

@Suite("Thumbnails")
struct ThumbnailLoaderTests {
    @Test("a package's own PNG is read once and served from the cache while the document is unchanged")
    func packagePNG() async throws {
        let fixture = try LibraryFixture()
        let index = try DocumentIndex.scan(fixture.library)
        let loader = ThumbnailLoader(library: fixture.library)
        let package = try #require(index.item("Pkg 100%.sketch"))
        let first = try #require(await loader.thumbnail(for: package))
        #expect(first.imageData == LibraryFixture.pngBytes)
        #expect(await loader.thumbnail(for: package) == first)
        #expect(loader.loadCount == 1)

        // The document changed: its picture is read again.
        try fixture.folder.file("Pkg 100%.sketch/QuickLook/Thumbnail.png", LibraryFixture.pngBytes + [9, 9])
        var changed = index
        changed.refresh(paths: [fixture.path("Pkg 100%.sketch/QuickLook/Thumbnail.png")])
        let newer = try #require(changed.item("Pkg 100%.sketch"))
        #expect(newer.modified != package.modified)
        #expect(loader.cachedThumbnail(for: newer) == nil)
        let second = try #require(await loader.thumbnail(for: newer))
        #expect(second.imageData.suffix(2) == [9, 9])
    }

    @Test(
        "a document without a picture of its own gets the host's generated one; a file that is not a PNG is not used"
    )
    func generator() async throws {
        let fixture = try LibraryFixture()
        try fixture.folder.file("Pkg 100%.sketch/QuickLook/Thumbnail.png", "not a png")
        let index = try DocumentIndex.scan(fixture.library)
        let asked = Mutex<[String]>([])
        let loader = ThumbnailLoader(library: fixture.library) { item in
            asked.withLock { $0.append(item.id) }
            return item.id == "My Drawing.sketch" ? [1, 2, 3] : nil
        }
        #expect(
            await loader.thumbnail(for: try #require(index.item("My Drawing.sketch")))?.imageData == [
                1, 2, 3,
            ])
        #expect(await loader.thumbnail(for: try #require(index.item("Pkg 100%.sketch"))) == nil)
        #expect(await loader.thumbnail(for: try #require(index.item("Stack 📚"))) == nil)
        #expect(asked.withLock { $0 } == ["My Drawing.sketch", "Pkg 100%.sketch"])
    }

    @Test("a cell that goes away cancels its load: the generator stops and nothing is cached")
    func cancellation() async throws {
        let fixture = try LibraryFixture()
        let index = try DocumentIndex.scan(fixture.library)
        let started = AsyncStream.makeStream(of: Void.self)
        let sawCancellation = Mutex(false)
        let loader = ThumbnailLoader(library: fixture.library) { _ in
            started.continuation.yield()
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                sawCancellation.withLock { $0 = true }
                throw error
            }
            return [1]
        }
        let item = try #require(index.item("My Drawing.sketch"))
        let cell = Task { await loader.thumbnail(for: item) }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        cell.cancel()
        #expect(await cell.value == nil)
        #expect(sawCancellation.withLock { $0 })
        #expect(loader.cachedCount == 0)
    }

    @Test("the browser drops a document's picture when the document changes on disk")
    @MainActor
    func browserInvalidates() async throws {
        let fixture = try LibraryFixture()
        let model = DocumentBrowserModel(library: fixture.library, clock: ImmediateClock())
        await model.load()
        let package = try #require(model.item("Pkg 100%.sketch"))
        _ = await model.thumbnails.thumbnail(for: package)
        #expect(model.thumbnails.cachedCount == 1)
        try model.startMonitoring()
        defer { model.stopMonitoring() }
        try fixture.folder.file("Pkg 100%.sketch/data.json", "{\"strokes\": [42]}")
        let deadline = ContinuousClock.now + .seconds(10)
        while model.thumbnails.cachedCount == 1 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(model.thumbnails.cachedCount == 0)
    }
}
