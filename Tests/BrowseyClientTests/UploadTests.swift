import BrowseyAPI
import BrowseyClient
import BrowseyClientNIO
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite("Uploads from a file: never clobbering, resumable")
struct UploadTests {
    private static let bytes = (0..<500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test(
        "a file arrives whole under an awkward name, with progress up to its size",
        arguments: TransportKind.allCases)
    func wholeFile(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        let local = try TemporaryFolder()
        let source = try local.file("photo #1 ü.bin", Self.bytes)
        try await LiveServer.with(tree, readOnly: false, transport: transport) { server, client in
            let last = Mutex<DownloadProgress?>(nil)
            let answer = try await client.upload(source, to: "/docs/photo #1 ü.bin") { progress in
                last.withLock { $0 = progress }
            }
            #expect(answer.ok && answer.path == "/docs/photo #1 ü.bin" && answer.size == 500_000)
            #expect(last.withLock { $0 } == DownloadProgress(received: 500_000, total: 500_000))
            #expect(try server.folder.contents("docs/photo #1 ü.bin") == Self.bytes)

            let empty = try local.file("empty.txt", "")
            #expect(try await client.upload(empty, to: "/empty.txt").size == 0)
            #expect(server.folder.exists("empty.txt"))
        }
    }

    @Test(
        "an existing name is refused unless asked to replace it or keep both",
        arguments: TransportKind.allCases)
    func existing(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        let local = try TemporaryFolder()
        let source = try local.file("new.txt", "new text")
        try await LiveServer.with(tree, readOnly: false, transport: transport) { server, client in
            await #expect {
                try await client.upload(source, to: "/docs/100% done.txt")
            } throws: { ($0 as? BrowseyClientError)?.code == .conflict }
            #expect(try server.folder.text("docs/100% done.txt") == "done")
            let both = try await client.upload(source, to: "/docs/100% done.txt", ifExists: .keepBoth)
            #expect(both.path != "/docs/100% done.txt" && both.path.hasPrefix("/docs/100% done"))
            #expect(try server.folder.text("docs/100% done.txt") == "done")
            try await client.upload(source, to: "/docs/100% done.txt", ifExists: .replace)
            #expect(try server.folder.text("docs/100% done.txt") == "new text")
        }
    }

    @Test("an upload the server holds part of goes on from there", arguments: TransportKind.allCases)
    func resumes(transport: TransportKind) async throws {
        let tree = try LiveServer.makeTree()
        let local = try TemporaryFolder()
        let source = try local.file("big.bin", Self.bytes)
        let head = try local.file("head.bin", Array(Self.bytes.prefix(200_000)))
        try await LiveServer.with(tree, readOnly: false, transport: transport) { server, client in
            // The first 200,000 bytes, sent as an interrupted upload would have.
            let curl = try await ExternalCommand.run(
                "curl",
                [
                    "-sS", "-X", "PUT", "--data-binary", "@\(head)", "-H",
                    "Content-Range: bytes 0-199999/500000",
                    "http://127.0.0.1:\(server.port)/api/file?path=/big%20upload.bin",
                ])
            #expect(curl.output.contains("\"received\":200000"), "\(curl.output)")
            #expect(try await client.uploadedBytes(of: "/big upload.bin", size: 500_000) == 200_000)
            #expect(!server.folder.exists("big upload.bin"))

            let first = Mutex<DownloadProgress?>(nil)
            let answer = try await client.upload(source, to: "/big upload.bin") { progress in
                first.withLock { if $0 == nil { $0 = progress } }
            }
            #expect(first.withLock { $0 }?.received == 200_000, "it went on from what the server held")
            #expect(answer.complete && answer.size == 500_000)
            #expect(try server.folder.contents("big upload.bin") == Self.bytes)
        }
    }

    @Test("a missing local file is a local error, said plainly")
    func missingSource() async throws {
        let tree = try LiveServer.makeTree()
        try await LiveServer.with(tree, readOnly: false) { _, client in
            await #expect {
                try await client.upload("/nonexistent/file.bin", to: "/x.bin")
            } throws: { ($0 as? BrowseyClientError)?.code == .localFile }
        }
    }

    @Test(
        "a local file shorter than its request says ends the request at once as a local error, not a wait for the server"
    )
    func shortSource() async throws {
        // A server that takes the request and never answers: only this side can end it.
        let silent = try StallingServer()
        defer { silent.stop() }
        let local = try TemporaryFolder()
        let path = try local.file("short.bin", [UInt8](repeating: 1, count: 1000))
        let server = try Server(name: "Silent", host: "127.0.0.1", port: silent.port)
        let started = ContinuousClock.now
        let error = await #expect(throws: BrowseyClientError.self) {
            _ = try await NIOHTTPTransport().send(
                TransportRequest(
                    method: "PUT", target: "/api/file?path=/x.bin",
                    body: .file(path: path, offset: 0, length: 5000)),
                to: server, timeout: .seconds(60))
        }
        #expect(error?.code == .localFile, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(30), "not the server's timeout")
    }
}
