import Foundation
import TestSupport
import Testing

@Suite("browsey serve --web-root")
struct WebRootCommandTests {
    @Test("a web root that is missing, or holds no index.html, is one clear line and exit status 1")
    func refusedAtStart() async throws {
        let folder = try TemporaryFolder()
        let missing = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--no-qr", "--web-root", folder.path("nowhere"),
        ])
        #expect(try await missing.stop(0) == 1)
        #expect(
            missing.printed.contains("Error: --web-root \(folder.path("nowhere")): "), "\(missing.printed)")
        #expect(missing.printed.contains("No such file or directory"))

        try folder.file("empty/readme.txt", "not a web UI")
        let empty = try RunningBrowsey([
            "serve", folder.path, "-p", "0", "--no-qr", "--web-root", folder.path("empty"),
        ])
        #expect(try await empty.stop(0) == 1)
        #expect(empty.printed.contains("holds no index.html"), "\(empty.printed)")
    }

    @Test("the server answers with the web root's page, read from disk")
    func servesFromDisk() async throws {
        let folder = try TemporaryFolder()
        let web = try TemporaryFolder(prefix: "browsey-web")
        try web.file("index.html", "<!doctype html><title>from disk</title>")
        let browsey = try RunningBrowsey(
            [
                "serve", folder.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-bonjour",
                "--no-index", "--web-root", web.path,
            ])
        let output = try await browsey.waitFor("Local:")
        let local = try #require(output.split(separator: "\n").first { $0.contains("Local:") })
        let address = try #require(local.split(separator: " ").last.map(String.init))
        let page = try await ExternalCommand.run(
            "curl", ["-s", address.hasSuffix("/") ? address + "docs" : address + "/docs"])
        #expect(page.output == "<!doctype html><title>from disk</title>")
        #expect(try await browsey.stop() == 0)
    }
}
