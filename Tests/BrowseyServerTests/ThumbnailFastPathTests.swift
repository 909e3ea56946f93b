import FileTree
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import TestSupport
import Testing
import Thumbnails

@testable import BrowseyServer

/// Thumbnails asked again: answered from memory on the event loop, and never when anything the
/// answer depends on changed.
@Suite("Thumbnails answered again from memory")
struct ThumbnailFastPathTests {
    /// Runs the whole server on a real port, its parts at hand.
    static func withServer(
        _ configuration: ServerConfiguration,
        _ body: @Sendable (any TestClientProtocol, ServerComposition) async throws -> Void
    ) async throws {
        let parts = ServerComposition(configuration)
        let app = try FileServer.application(
            configuration, logger: Logger(label: "test"),
            connections: FileServer.connectionRegistry(for: configuration), composed: parts,
            onServerRunning: { _ in })
        try await app.test(.live) { client in try await body(client, parts) }
    }

    static func fixture() throws -> ServerFixture {
        let fixture = try ServerFixture.make()
        try fixture.folder.file("photos/wide.jpg", try ThumbnailRouteTests.jpeg(width: 640, height: 400))
        return fixture
    }

    static let wide = "/api/thumb?path=/photos/wide.jpg&size=256"

    @Test("a thumbnail asked again is sent from memory as the router sent it, dated now")
    func askedAgain() async throws {
        let fixture = try Self.fixture()
        try await Self.withServer(fixture.configuration()) { client, parts in
            let answers = try #require(parts.thumbnailAnswers)
            let first = try await client.ask(Self.wide)
            #expect(first.status == .ok)
            #expect(answers.count.answers == 1 && answers.count.hits == 0)
            let second = try await client.ask(Self.wide)
            let third = try await client.ask(Self.wide)
            #expect(answers.count.hits == 2)
            for again in [second, third] {
                #expect(again.status == .ok)
                #expect(again.body == first.body)
                var headers = again.headers
                var firstHeaders = first.headers
                #expect(headers[.date] != nil)
                headers[.date] = nil
                firstHeaders[.date] = nil
                #expect(headers == firstHeaders)
            }
            // Asked on its own, without a size, is another request: the router answers it first.
            _ = try await client.ask("/api/thumb?path=/photos/wide.jpg")
            #expect(answers.count.hits == 2 && answers.count.answers == 2)
        }
    }

    @Test(
        "a picture rewritten, renamed away or removed is answered by the router, never with the old thumbnail"
    )
    func pictureChanged() async throws {
        let fixture = try Self.fixture()
        try await Self.withServer(fixture.configuration()) { client, parts in
            let answers = try #require(parts.thumbnailAnswers)
            let first = try await client.ask(Self.wide)
            #expect(first.headers[.imageWidth] == "640")

            // Same size in bytes is not enough to look unchanged: the inode's times differ.
            try fixture.folder.file("photos/wide.jpg", try ThumbnailRouteTests.jpeg(width: 300, height: 500))
            let rewritten = try await client.ask(Self.wide)
            #expect(rewritten.status == .ok)
            #expect(rewritten.headers[.imageWidth] == "300")
            #expect(rewritten.headers[.eTag] != first.headers[.eTag])
            #expect(answers.count.hits == 0)

            _ = try await client.ask(Self.wide)
            #expect(answers.count.hits == 1, "the new version is kept in its turn")

            try FileManager.default.moveItem(
                atPath: fixture.folder.path("photos/wide.jpg"),
                toPath: fixture.folder.path("photos/moved.jpg"))
            let gone = try await client.ask(Self.wide)
            #expect(gone.status == .notFound)
            #expect(gone.error != nil)
            #expect(answers.count.hits == 1)
        }
    }

    @Test("a folder above a picture replaced by a link to it: the router's refusal, not the kept answer")
    func folderReplacedByLink() async throws {
        let fixture = try Self.fixture()
        try await Self.withServer(fixture.configuration()) { client, parts in
            let answers = try #require(parts.thumbnailAnswers)
            #expect(try await client.ask(Self.wide).status == .ok)
            #expect(try await client.ask(Self.wide).status == .ok)
            #expect(answers.count.hits == 1)
            // The picture keeps its inode, size and times: only the watcher sees this.
            try FileManager.default.moveItem(
                atPath: fixture.folder.path("photos"), toPath: fixture.outside.path("photos"))
            try FileManager.default.createSymbolicLink(
                atPath: fixture.folder.path("photos"), withDestinationPath: fixture.outside.path("photos"))
            var status = HTTPResponse.Status.ok
            for _ in 0..<40 where status == .ok {
                status = try await client.ask(Self.wide).status
                if status == .ok { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == .forbidden || status == .notFound, "\(status)")
            #expect(answers.count.answers == 0)
        }
    }

    @Test("a request that differs in what it accepts or who it is from gets its own answer")
    func keyedByRequest() async throws {
        try #require(ThumbnailEncoding.webp.isAvailable, "libwebp7 is installed by README's test command")
        let fixture = try Self.fixture()
        var configuration = fixture.configuration()
        configuration.token = "s3cret-token-of-32-characters-xx"
        try await Self.withServer(configuration) { client, parts in
            let answers = try #require(parts.thumbnailAnswers)
            let token: HTTPFields = [.authorization: "Bearer s3cret-token-of-32-characters-xx"]
            let jpeg = try await client.ask(Self.wide, headers: token)
            #expect(jpeg.headers[.contentType] == "image/jpeg")
            var browser = token
            browser[.accept] = "image/avif,image/webp,*/*"
            let webp = try await client.ask(Self.wide, headers: browser)
            #expect(webp.headers[.contentType] == "image/webp")
            let jpegAgain = try await client.ask(Self.wide, headers: token)
            let webpAgain = try await client.ask(Self.wide, headers: browser)
            #expect(jpegAgain.body == jpeg.body && webpAgain.body == webp.body)
            #expect(answers.count.hits == 2)

            // The token was part of the request the answer was kept for.
            let anonymous = try await client.ask(Self.wide)
            #expect(anonymous.status == .unauthorized)
            let wrong = try await client.ask(
                Self.wide, headers: [.authorization: "Bearer wrong-token-of-32-characters-xxx"])
            #expect(wrong.status == .unauthorized)
            #expect(answers.count.hits == 2)
        }
    }

    @Test("a conditional request goes to the router, which answers 304")
    func conditional() async throws {
        let fixture = try Self.fixture()
        try await Self.withServer(fixture.configuration()) { client, parts in
            let answers = try #require(parts.thumbnailAnswers)
            let first = try await client.ask(Self.wide)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.ask(Self.wide, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)
            #expect(answers.count.hits == 0)
        }
    }

    @Test("a server with accounts keeps no answers: a session can end while its cookie is still sent")
    func noneWithAccounts() throws {
        let fixture = try Self.fixture()
        var configuration = fixture.configuration()
        configuration.accounts = Accounts(users: [], rules: [])
        #expect(ServerComposition(configuration).thumbnailAnswers == nil)
        configuration.accounts = nil
        configuration.logsRequests = true
        #expect(
            ServerComposition(configuration).thumbnailAnswers == nil, "answers from memory would go unlogged")
    }
}

/// ``ThumbnailFastPath`` on a channel of its own: what it passes on, what it answers, in which
/// order.
@Suite("The thumbnail fast path's handler")
struct ThumbnailFastPathHandlerTests {
    static func head(_ uri: String, _ fields: [(String, String)] = []) -> HTTPServerRequestPart {
        var headers = HTTPHeaders([("Host", "127.0.0.1")])
        for (name, value) in fields { headers.add(name: name, value: value) }
        return .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: headers))
    }

    /// A channel with the handler, and a picture whose answer can be kept.
    static func channel() throws -> (EmbeddedChannel, ThumbnailAnswers, TemporaryFolder) {
        let folder = try TemporaryFolder()
        try folder.file("a.jpg", [1, 2, 3])
        let answers = ThumbnailAnswers()
        let channel = EmbeddedChannel(handler: ThumbnailFastPath(answers: answers))
        return (channel, answers, folder)
    }

    /// Plays the router: answers the request last passed on with `body`, preparing its slot
    /// for `path` first.
    static func answer(
        _ channel: EmbeddedChannel, answers: ThumbnailAnswers, slot: String?, path: String?, body: String
    ) throws {
        if let slot = slot.flatMap({ UInt64($0) }), let path {
            let status = try #require(FileStatus(path: path))
            answers.prepare(slot: slot, path: path, version: .init(status))
        }
        var headers = HTTPHeaders([
            ("Content-Length", String(body.utf8.count)), ("Content-Type", "image/jpeg"),
        ])
        headers.add(name: "Date", value: "Thu, 01 Jan 1970 00:00:00 GMT")
        try channel.writeOutbound(
            HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: body))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    }

    /// A whole request without a body arriving on `channel`.
    static func request(_ channel: EmbeddedChannel, _ uri: String, _ fields: [(String, String)] = []) throws {
        try channel.writeInbound(head(uri, fields))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
    }

    /// Asks for `uri` and plays the router answering it with a kept thumbnail of `a.jpg`.
    static func keepAnswer(
        _ channel: EmbeddedChannel, answers: ThumbnailAnswers, folder: TemporaryFolder, uri: String
    ) throws {
        try request(channel, uri)
        let first = try #require(try passedOnHead(channel))
        try answer(
            channel, answers: answers, slot: first.headers[ThumbnailAnswers.slotField].first,
            path: folder.path("a.jpg"), body: "thumbnail")
        while try channel.readOutbound(as: HTTPServerResponsePart.self) != nil {}
    }

    static func passedOnHead(_ channel: EmbeddedChannel) throws -> HTTPRequestHead? {
        guard case .head(let head) = try channel.readInbound(as: HTTPServerRequestPart.self) else {
            return nil
        }
        _ = try channel.readInbound(as: HTTPServerRequestPart.self)  // its end
        return head
    }

    @Test("a request's key is its target and every field a route could read; a conditional one has none")
    func keys() {
        func key(_ uri: String, _ fields: [(String, String)] = []) -> String? {
            guard case .head(let head) = Self.head(uri, fields) else { return nil }
            return ThumbnailAnswers.key(of: head)
        }
        let uri = "/api/thumb?path=/a.jpg&size=256"
        let plain = key(uri)
        #expect(plain != nil)
        #expect(
            key(uri, [("User-Agent", "a"), ("Referer", "http://x/"), ("Sec-Fetch-Mode", "no-cors")]) == plain)
        #expect(key("/api/thumb?path=/b.jpg&size=256") != plain)
        for field in ["Accept", "Origin", "Cookie", "Authorization", "Accept-Encoding", "X-Anything-New"] {
            #expect(key(uri, [(field, "x")]) != plain, "\(field)")
        }
        guard case .head(var elsewhere) = Self.head(uri) else { return }
        elsewhere.headers.replaceOrAdd(name: "Host", value: "evil.example")
        #expect(ThumbnailAnswers.key(of: elsewhere) != plain)
        for field in ["If-None-Match", "Range", "If-Modified-Since", "Content-Length"] {
            #expect(key(uri, [(field, "1")]) == nil, "\(field)")
        }
        #expect(key(uri, [("Connection", "close")]) == nil)
        #expect(key("/api/files?path=/") == nil)
        #expect(key("/api/thumbnails?path=/") == nil)
    }

    @Test("a slot a client names never reaches the router; the handler's own replaces it")
    func forgedSlot() throws {
        let (channel, answers, folder) = try Self.channel()
        defer { _ = try? channel.finish() }
        let forged = answers.issueSlot()  // another request's
        try channel.writeInbound(
            Self.head("/api/files?path=/", [(ThumbnailAnswers.slotField, String(forged))]))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        let plain = try #require(try Self.passedOnHead(channel))
        #expect(plain.headers[ThumbnailAnswers.slotField].isEmpty)
        try Self.answer(channel, answers: answers, slot: nil, path: nil, body: "[]")

        try channel.writeInbound(
            Self.head("/api/thumb?path=/a.jpg", [(ThumbnailAnswers.slotField, String(forged))]))
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        let thumb = try #require(try Self.passedOnHead(channel))
        #expect(thumb.headers[ThumbnailAnswers.slotField].count == 1)
        #expect(thumb.headers[ThumbnailAnswers.slotField] != [String(forged)])
        _ = folder
    }

    @Test(
        "a kept answer is sent only when no earlier request still waits for the router: answers keep their order"
    )
    func order() throws {
        let (channel, answers, folder) = try Self.channel()
        defer { _ = try? channel.finish() }
        let uri = "/api/thumb?path=/a.jpg"
        try Self.keepAnswer(channel, answers: answers, folder: folder, uri: uri)
        #expect(answers.count.answers == 1)

        // A slow request, then the kept one pipelined behind it: both go to the router.
        try Self.request(channel, "/api/files?path=/")
        try Self.request(channel, uri)
        #expect(try Self.passedOnHead(channel)?.uri == "/api/files?path=/")
        #expect(try Self.passedOnHead(channel)?.uri == uri)
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == nil, "nothing answered ahead")
        #expect(answers.count.hits == 0)

        // Once both are answered, the next one is sent from memory, with a fresh date.
        try Self.answer(channel, answers: answers, slot: nil, path: nil, body: "[]")
        try Self.answer(channel, answers: answers, slot: nil, path: nil, body: "thumbnail")
        while try channel.readOutbound(as: HTTPServerResponsePart.self) != nil {}
        try Self.request(channel, uri)
        #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == nil, "not passed on")
        guard case .head(let sent) = try channel.readOutbound(as: HTTPServerResponsePart.self) else {
            Issue.record("no answer head")
            return
        }
        #expect(sent.status == .ok)
        #expect(sent.headers["Date"].count == 1 && sent.headers["Date"] != ["Thu, 01 Jan 1970 00:00:00 GMT"])
        guard case .body(.byteBuffer(let body)) = try channel.readOutbound(as: HTTPServerResponsePart.self)
        else {
            Issue.record("no answer body")
            return
        }
        #expect(String(buffer: body) == "thumbnail")
        #expect(answers.count.hits == 1)
    }

    @Test("nothing is answered from memory after a request that closes the connection")
    func afterClose() throws {
        let (channel, answers, folder) = try Self.channel()
        defer { _ = try? channel.finish() }
        let uri = "/api/thumb?path=/a.jpg"
        try Self.keepAnswer(channel, answers: answers, folder: folder, uri: uri)
        try Self.request(channel, "/api/files?path=/", [("Connection", "close")])
        _ = try Self.passedOnHead(channel)
        try Self.answer(channel, answers: answers, slot: nil, path: nil, body: "[]")
        while try channel.readOutbound(as: HTTPServerResponsePart.self) != nil {}
        try Self.request(channel, uri)
        #expect(try Self.passedOnHead(channel)?.uri == uri, "passed on, for the router to refuse")
        #expect(try channel.readOutbound(as: HTTPServerResponsePart.self) == nil)
        #expect(answers.count.hits == 0)
    }

    @Test("only a whole 200 answer the router prepared is kept")
    func whatIsKept() throws {
        let (channel, answers, folder) = try Self.channel()
        defer { _ = try? channel.finish() }
        let uri = "/api/thumb?path=/a.jpg"
        // Not prepared (the router answered something it does not vouch for).
        try Self.request(channel, uri)
        _ = try Self.passedOnHead(channel)
        try Self.answer(channel, answers: answers, slot: nil, path: nil, body: "x")
        #expect(answers.count.answers == 0)
        // Prepared, but the picture changed before the answer went out.
        try Self.request(channel, uri)
        let head = try #require(try Self.passedOnHead(channel))
        let slot = try #require(head.headers[ThumbnailAnswers.slotField].first.flatMap { UInt64($0) })
        answers.prepare(
            slot: slot, path: folder.path("a.jpg"),
            version: .init(try #require(FileStatus(path: folder.path("a.jpg")))))
        try folder.file("a.jpg", [9, 9, 9, 9])
        try Self.answer(channel, answers: answers, slot: nil, path: nil, body: "old")
        #expect(answers.count.answers == 0)
        // A conditional request is never given a slot.
        try Self.request(channel, uri, [("If-None-Match", "\"x\"")])
        #expect(try Self.passedOnHead(channel)?.headers[ThumbnailAnswers.slotField].isEmpty == true)
    }
}
