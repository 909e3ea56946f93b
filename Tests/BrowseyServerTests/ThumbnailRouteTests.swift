import BrowseyAPI
import Foundation
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing
import Thumbnails

@testable import BrowseyServer

/// `/api/thumb`, the `thumbnail` mark in listings, `/api/view`'s picture, and the cache.
@Suite("Thumbnails over HTTP")
struct ThumbnailRouteTests {
    /// A photo-like JPEG of `width` x `height` (made from a generated PNG by the thumbnailer).
    static func jpeg(width: Int, height: Int, seed: UInt64 = 1) throws -> [UInt8] {
        var random = SeededRandom(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                let noise = UInt8(random.next() % 16)
                pixels[at] = UInt8(x * 200 / width) &+ noise
                pixels[at + 1] = UInt8(y * 200 / height) &+ noise
                pixels[at + 2] = 90 &+ noise
            }
        }
        let png = GeneratedPNG.rgb(width: width, height: height, pixels: pixels)
        return try Thumbnailer().thumbnail(of: png, longest: max(width, height)).encoded
    }

    static func fixture() throws -> ServerFixture {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("photos/wide.jpg", try jpeg(width: 640, height: 400))
        try fixture.folder.file("photos/.hidden.jpg", try jpeg(width: 64, height: 40))
        try fixture.folder.file("photos/empty.jpg", [UInt8]())
        try fixture.folder.file("photos/huge.png", GeneratedPNG.headerOnly(width: 50_000, height: 50_000))
        try fixture.folder.file("photos/notes.txt", "not a picture")
        return fixture
    }

    @Test(
        "a thumbnail is a JPEG in its size class, with a strong ETag, a cache policy and the original's size")
    func thumbnail() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/thumb?path=/photos/wide.jpg&size=200")
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "image/jpeg")
            #expect(answer.headers[.cacheControl] == ThumbnailController.cacheControl)
            #expect(answer.headers[.imageWidth] == "640")
            #expect(answer.headers[.imageHeight] == "400")
            let etag = try #require(answer.headers[.eTag])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let metadata = try #require(ImageMetadata.read(Array(answer.body)))
            #expect(metadata.width == 256 && metadata.height == 160, "size 200 rounds up to the 256 class")

            let again = try await client.ask(
                "/api/thumb?path=/photos/wide.jpg&size=200", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)

            let big = try await client.ask("/api/thumb?path=/photos/wide.jpg&size=2000")
            let bigSize = try #require(ImageMetadata.read(Array(big.body)))
            #expect(bigSize.width == 640 && bigSize.height == 400, "never above the original")

            let head = try await client.ask("/api/thumb?path=/photos/wide.jpg", method: .head)
            #expect(head.status == .ok && head.body.isEmpty && head.headers[.contentType] == "image/jpeg")
        }
    }

    @Test(
        "a client that accepts WebP gets the grid's classes as WebP, with an ETag of their own; previews and other clients get JPEG"
    )
    func webpForThoseWhoAccept() async throws {
        try #require(ThumbnailEncoding.webp.isAvailable, "libwebp7 is installed by README's test command")
        let fixture = try Self.fixture()
        let browser = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        try await fixture.withClient { client in
            let webp = try await client.ask(
                "/api/thumb?path=/photos/wide.jpg&size=256", headers: [.accept: browser])
            #expect(webp.status == .ok && webp.headers[.contentType] == "image/webp")
            #expect(webp.headers[.vary] == "Accept" && webp.headers[.imageWidth] == "640")
            #expect(
                webp.body.starts(with: Array("RIFF".utf8))
                    && Array(webp.body)[8..<12].elementsEqual("WEBP".utf8))
            let jpeg = try await client.ask("/api/thumb?path=/photos/wide.jpg&size=256")
            #expect(jpeg.headers[.contentType] == "image/jpeg" && jpeg.headers[.vary] == "Accept")
            #expect(webp.body.count < jpeg.body.count, "\(webp.body.count) vs \(jpeg.body.count)")
            let webpTag = try #require(webp.headers[.eTag])
            #expect(webpTag != jpeg.headers[.eTag], "a cache keyed by URL and ETag never mixes them")
            let again = try await client.ask(
                "/api/thumb?path=/photos/wide.jpg&size=256",
                headers: [.accept: browser, .ifNoneMatch: webpTag])
            #expect(again.status == .notModified)
            let refused = try await client.ask(
                "/api/thumb?path=/photos/wide.jpg&size=256", headers: [.accept: "image/webp;q=0, image/jpeg"])
            #expect(refused.headers[.contentType] == "image/jpeg")
            let preview = try await client.ask(
                "/api/thumb?path=/photos/wide.jpg&size=1024", headers: [.accept: browser])
            #expect(preview.headers[.contentType] == "image/jpeg", "a preview class stays JPEG")
        }
    }

    @Test("Accept is read for image/webp alone, with its quality")
    func acceptParsing() {
        #expect(ThumbnailController.acceptsWebP(["image/webp"]))
        #expect(ThumbnailController.acceptsWebP(["text/html", "image/png, IMAGE/WEBP ;q=0.5"]))
        #expect(!ThumbnailController.acceptsWebP(["image/webp;q=0"]))
        #expect(!ThumbnailController.acceptsWebP(["image/*", "*/*"]))
        #expect(!ThumbnailController.acceptsWebP([]))
        #expect(!ThumbnailController.acceptsWebP(["image/webpx"]))
    }

    @Test("thumbnails follow /api/file's path rules: hidden 404, outside 403, missing 404")
    func pathRules() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            let expected: [(String, HTTPResponse.Status)] = [
                ("/api/thumb?path=/photos/.hidden.jpg", .notFound),
                ("/api/thumb?path=/photos/nothing.jpg", .notFound),
                ("/api/thumb?path=/../secret.txt", .forbidden),
                ("/api/thumb", .badRequest),
                ("/api/thumb?path=/photos&size=256", .badRequest),
                ("/api/thumb?path=/photos/wide.jpg&size=big", .badRequest),
            ]
            for (uri, status) in expected {
                let answer = try await client.ask(uri)
                #expect(answer.status == status, "\(uri)")
            }
        }
    }

    @Test("what cannot be a thumbnail is a JSON 415, a picture past the pixel limit a JSON 413")
    func refusals() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            for path in ["/photos/empty.jpg", "/photos/notes.txt"] {
                let answer = try await client.ask("/api/thumb?path=\(path)")
                #expect(answer.status == .unsupportedMediaType, "\(path)")
                #expect(answer.json["code"] as? String == "notThumbnailable")
                #expect(answer.error != nil)
            }
            let huge = try await client.ask("/api/thumb?path=/photos/huge.png")
            #expect(huge.status == .contentTooLarge)
            #expect(huge.json["code"] as? String == "imageTooLarge")
        }
    }

    @Test("listings mark what the server can make a thumbnail of, and nothing else")
    func listingMarks() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            let listing = try await client.ask("/api/list?path=/photos").decode(ListResponse.self)
            let marked = Dictionary(uniqueKeysWithValues: listing.items.map { ($0.name, $0.thumbnail) })
            #expect(marked["wide.jpg"] == true)
            #expect(marked["huge.png"] == true)
            #expect(marked["notes.txt"] == Bool?.none)
            let raw = try await client.ask("/api/list?path=/photos").text
            #expect(!raw.contains(#""thumbnail":false"#))
            let root = try await client.ask("/api/list?path=/").decode(ListResponse.self)
            #expect(root.items.first { $0.name == "photos" }?.thumbnail == nil, "folders are not marked")
        }
    }

    @Test("/api/view describes a picture: its size, and EXIF's date, camera and orientation")
    func viewPicture() async throws {
        let fixture = try Self.fixture()
        try await fixture.withClient { client in
            let view = try await client.ask("/api/view?path=/photos/wide.jpg").decode(ViewResponse.self)
            #expect(view.image == ViewResponse.Picture(width: 640, height: 400))
            let text = try await client.ask("/api/view?path=/photos/notes.txt").decode(ViewResponse.self)
            #expect(text.image == nil)
        }
    }

    @Test("a replaced original gets a new ETag and new bytes, never the old thumbnail")
    func replacedOriginal() async throws {
        let fixture = try Self.fixture()
        let cache = try TemporaryFolder(prefix: "browsey-thumbs")
        var configuration = fixture.configuration()
        configuration.thumbnailFolder = cache.path
        try await fixture.withClient(configuration) { client in
            let first = try await client.ask("/api/thumb?path=/photos/wide.jpg&size=128")
            let replacement = try Self.jpeg(width: 300, height: 600, seed: 9)
            let temporary = fixture.folder.path("photos/.replacement")
            try Data(replacement).write(to: URL(fileURLWithPath: temporary))
            #expect(rename(temporary, fixture.folder.path("photos/wide.jpg")) == 0)
            let second = try await client.ask("/api/thumb?path=/photos/wide.jpg&size=128")
            #expect(second.status == .ok)
            #expect(second.headers[.eTag] != first.headers[.eTag])
            #expect(second.body != first.body)
            let size = try #require(ImageMetadata.read(Array(second.body)))
            #expect(size.width == 64 && size.height == 128)
            let stale = try await client.ask(
                "/api/thumb?path=/photos/wide.jpg&size=128",
                headers: [.ifNoneMatch: first.headers[.eTag] ?? ""])
            #expect(stale.status == .ok, "the old ETag does not match the new picture")
        }
    }

    @Test("--thumbs eager makes the grid's thumbnails ahead, of every visible picture and each new one")
    func madeAhead() async throws {
        let fixture = try Self.fixture()
        let cache = try TemporaryFolder(prefix: "browsey-thumbs")
        var configuration = fixture.configuration()
        configuration.thumbnailFolder = cache.path
        configuration.makesThumbnailsAhead = true
        /// The cached thumbnails, waiting up to 20 s for `count` of them.
        @Sendable func cached(_ count: Int) async throws -> [String] {
            var names: [String] = []
            for _ in 0..<200 {
                names = ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? [])
                    .filter { $0.hasSuffix(".thumb") }
                if names.count >= count { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return names.sorted()
        }
        try await fixture.withClient(configuration) { client in
            let first = try await cached(2)
            let encoding = ThumbnailService.gridEncoding
            let suffix = "v\(Thumbnailer.encoderVersion)" + (encoding == .jpeg ? "" : "-" + encoding.rawValue)
            #expect(first.count == 2, "wide.jpg in 256 and 512; not the hidden, empty or huge ones: \(first)")
            #expect(
                first.contains { $0.hasSuffix("-256-\(suffix).thumb") }
                    && first.contains { $0.hasSuffix("-512-\(suffix).thumb") },
                "in the grid's encoding: \(first)")
            try fixture.folder.file("photos/new.jpg", try Self.jpeg(width: 320, height: 200, seed: 5))
            let second = try await cached(4)
            #expect(second.count == 4, "the new picture's two classes follow: \(second)")
            /// The cache files' inodes: a decode writes its file anew (a new inode), a hit reads it.
            func inodes() throws -> [String: Int] {
                var found: [String: Int] = [:]
                for name in second {
                    let attributes = try FileManager.default.attributesOfItem(atPath: cache.path + "/" + name)
                    found[name] = (attributes[.systemFileNumber] as? NSNumber)?.intValue
                }
                return found
            }
            let before = try inodes()
            let answer = try await client.ask("/api/thumb?path=/photos/new.jpg&size=256")
            #expect(answer.status == .ok)
            #expect(try inodes() == before, "served from what was made ahead, not decoded again")
        }
    }

    @Test("a thousand damaged pictures: every answer 200 or a JSON 415/413, and the server keeps going")
    func damagedPictures() async throws {
        let fixture = try ServerFixture.make()
        let jpeg = try Self.jpeg(width: 48, height: 32, seed: 4)
        var pixels = [UInt8](repeating: 0, count: 48 * 32 * 3)
        for index in pixels.indices { pixels[index] = UInt8(index * 7 % 251) }
        let png = GeneratedPNG.rgb(width: 48, height: 32, pixels: pixels)
        let originals: [(String, [UInt8])] = [("jpg", jpeg), ("png", png)]
        var random = SeededRandom(seed: 1000)
        for index in 0..<1000 {
            let (ext, original) = originals[index % originals.count]
            var bytes = original
            if index % 2 == 0 {
                bytes.removeSubrange(Int(random.next() % UInt64(bytes.count))...)
            } else {
                for _ in 0..<(1 + random.next() % 6) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] ^= UInt8(1 << (random.next() % 8))
                }
            }
            try fixture.folder.file("damaged/\(index).\(ext)", bytes)
        }
        try await fixture.withClient { client in
            var counts: [Int: Int] = [:]
            for index in 0..<1000 {
                let ext = index % 2 == 0 ? "jpg" : "png"
                let answer = try await client.ask("/api/thumb?path=/damaged/\(index).\(ext)&size=64")
                counts[Int(answer.status.code), default: 0] += 1
                if answer.status == .ok {
                    #expect(answer.headers[.contentType] == "image/jpeg")
                } else {
                    #expect(
                        answer.status == .unsupportedMediaType || answer.status == .contentTooLarge,
                        "\(index).\(ext): \(answer.status)")
                    let code = answer.json["code"] as? String
                    #expect(code == "notThumbnailable" || code == "imageTooLarge", "\(index).\(ext)")
                }
            }
            #expect(counts[200, default: 0] > 0 && counts[415, default: 0] > 0, "\(counts)")
            #expect(try await client.ask("/api/health").status == .ok)
        }
    }
}

/// The thumbnail service and its cache, without HTTP.
@Suite("Thumbnail service")
struct ThumbnailServiceTests {
    @Test("a hundred simultaneous requests for one thumbnail make one decode")
    func singleFlight() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("photo.jpg", try ThumbnailRouteTests.jpeg(width: 1600, height: 1200))
        let service = ThumbnailService(thumbnailer: Thumbnailer(), cache: nil)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    try await service.thumbnail(
                        key: "one", descriptor: descriptor, name: "photo.jpg", path: path, sizeClass: 256
                    ).bytes.count
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.count == 100 && Set(results).count == 1)
        #expect(service.decodes == 1)
    }

    @Test("a request abandoned before its decode starts never decodes")
    func cancelledBeforeDecoding() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("photo.jpg", try ThumbnailRouteTests.jpeg(width: 64, height: 64))
        let service = ThumbnailService(thumbnailer: Thumbnailer(), cache: nil)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        let task = Task {
            try await service.thumbnail(
                key: "gone", descriptor: descriptor, name: "photo.jpg", path: path, sizeClass: 128)
        }
        task.cancel()
        _ = try? await task.value
        #expect(service.decodes == 0)
    }

    @Test("the decode queue lets a cancelled waiter go without a turn, and turns are never lost")
    func decodeQueue() async throws {
        let limiter = DecodeLimiter(permits: 1)
        try await limiter.acquire()
        let waiter = Task { try await limiter.acquire() }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        limiter.release()
        // The one turn is free again: the next caller gets it at once.
        let next = Task { try await limiter.acquire() }
        try await next.value
        limiter.release()
    }

    @Test("the disk cache stays under its limit, dropping the least recently used first")
    func leastRecentlyUsed() throws {
        let folder = try TemporaryFolder()
        let cache = ThumbnailCache(folder: folder.path("thumbs"), limit: 10_000, logger: .init(label: "test"))
        let bytes = [UInt8](repeating: 7, count: 3000)
        cache.store(bytes, for: "a", path: "/a.jpg")
        cache.store(bytes, for: "b", path: "/b.jpg")
        cache.store(bytes, for: "c", path: "/c.jpg")
        #expect(cache.read("a") == bytes, "a is now the most recently used")
        cache.store(bytes, for: "d", path: "/d.jpg")
        #expect(cache.totalBytes <= 10_000)
        #expect(cache.read("b") == nil, "the least recently used went first")
        #expect(cache.read("a") == bytes && cache.read("d") == bytes)
        let reopened = ThumbnailCache(
            folder: folder.path("thumbs"), limit: 10_000, logger: .init(label: "test"))
        #expect(reopened.count == cache.count, "a restart counts what is on disk")
        cache.invalidate("/a.jpg")
        #expect(cache.read("a") == nil, "a changed picture's thumbnails are dropped")
    }
}
