import Foundation
import TestSupport
import Testing

/// Runs the real executable with `arguments`; its exit status and what it printed.
private func browsey(
    _ arguments: [String], in folder: String? = nil
) async throws -> (status: Int32?, output: String) {
    let command = try ExternalCommand(
        "sh", ["-c", "cd \"$0\" && exec \"$@\"", folder ?? "/", RunningBrowsey.executable.path] + arguments)
    let status = await command.wait(timeout: .seconds(60))
    return (status, command.output)
}

@Suite("The command-line client against a real server", .serialized)
struct ClientCommandTests {
    @Test(
        "ls, stat, cat and get work on URLs with awkward names, and say what went wrong with a status scripts can use"
    )
    func readingCommands() async throws {
        let served = try TemporaryFolder()
        try served.file("docs/100% done #1.txt", "finished\n")
        try served.file("docs/café ☕/x.md", "# x\n")
        let bytes = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try served.file("big file.bin", bytes)
        let server = try ExternalCommand(
            RunningBrowsey.executable.path,
            ["serve", served.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-index", "--auth"])
        defer { server.terminate() }
        let banner = await server.waitFor("Mode:")
        let local = try #require(banner.components(separatedBy: "\n").first { $0.contains("Local:") })
        let signed = try #require(local.split(separator: " ").last.map(String.init))
        let base = String(signed.prefix { $0 != "?" }).dropLast()
        let token = String(try #require(signed.split(separator: "=").last))

        let listing = try await browsey(["ls", "\(base)/docs/", "--token", token])
        #expect(listing.status == 0, "\(listing.output)")
        #expect(
            listing.output.contains("café ☕/") && listing.output.contains("9 B")
                && listing.output.contains("100% done #1.txt"))

        let json = try await browsey(["ls", signed.replacingOccurrences(of: "/?", with: "/docs?"), "--json"])
        #expect(json.status == 0 && json.output.contains("\"name\" : \"100% done #1.txt\""), "\(json.output)")

        let stat = try await browsey(["stat", "\(base)/docs/100%25%20done%20%231.txt", "--token", token])
        #expect(stat.status == 0 && stat.output.contains("size:      9 bytes"), "\(stat.output)")

        let cat = try await browsey(["cat", "\(base)/docs/100%25%20done%20%231.txt", "--token", token])
        #expect(cat.output == "finished\n")

        let downloads = try TemporaryFolder()
        let get = try await browsey(["get", "\(base)/big%20file.bin", "--token", token], in: downloads.path)
        #expect(get.status == 0 && get.output.isEmpty, "quiet when not on a terminal: \(get.output)")
        #expect(try downloads.contents("big file.bin") == bytes)
        let named = try await browsey([
            "get", "\(base)/big%20file.bin", "-o", downloads.path("copy.bin"), "--token", token,
        ])
        #expect(named.status == 0)
        #expect(try downloads.contents("copy.bin") == bytes)
        try FileManager.default.createDirectory(
            atPath: downloads.path("into"), withIntermediateDirectories: false)
        for folder in [downloads.path("into"), downloads.path("into") + "/"] {
            let into = try await browsey(["get", "\(base)/big%20file.bin", "-o", folder, "--token", token])
            #expect(into.status == 0, "-o a folder saves the file in it, as cp does: \(into.output)")
        }
        #expect(try downloads.contents("into/big file.bin") == bytes)
        let nowhere = try await browsey([
            "get", "\(base)/big%20file.bin", "-o", downloads.path("missing") + "/", "--token", token,
        ])
        #expect(nowhere.status == 2 && nowhere.output.contains("is not a folder here"), "\(nowhere.output)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: downloads.path("into")) == ["big file.bin"],
            "and leaves nothing else there")

        // What went wrong, and the status: 1 refused, 2 usage, 3 unreachable, 4 token.
        let missing = try await browsey(["stat", "\(base)/nope.txt", "--token", token])
        #expect(
            missing.status == 1 && missing.output.contains("Error: File not found (HTTP 404"),
            "\(missing.output)")
        let unsigned = try await browsey(["ls", "\(base)/"])
        #expect(unsigned.status == 4 && unsigned.output.contains("asks for a token"), "\(unsigned.output)")
        let unknown = try await browsey(["ls", "http://no-such-host.invalid:8080/"])
        #expect(
            unknown.status == 3 && unknown.output.contains("the name is not known on this network")
                && !unknown.output.contains("Error."),
            "a name no one knows, in words: \(unknown.output)")
        let nobody = try await browsey(["ls", "http://127.0.0.1:9/"])
        #expect(nobody.status == 3 && nobody.output.contains("cannot reach"), "\(nobody.output)")
        let nonsense = try await browsey(["ls", "ftp://somewhere/"])
        #expect(
            nonsense.status == 2 && nonsense.output.contains("expected http://host:port/"),
            "\(nonsense.output)")
    }

    @Test("put, mkdir, mv, cp, rm, find and get -r change and copy trees; a second run skips what is done")
    func writingCommands() async throws {
        let served = try TemporaryFolder()
        try served.file("start.txt", "start")
        let server = try ExternalCommand(
            RunningBrowsey.executable.path,
            [
                "serve", served.path, "-p", "0", "--host", "127.0.0.1", "--no-qr", "--no-readonly",
                "--no-trash",
            ])
        defer { server.terminate() }
        let banner = await server.waitFor("Mode:")
        let local = try #require(banner.components(separatedBy: "\n").first { $0.contains("Local:") })
        let base = String(try #require(local.split(separator: " ").last)).dropLast()

        let mine = try TemporaryFolder()
        for index in 1...30 {
            try mine.file(
                "album #1/photo \(index) ü.jpg", Array(repeating: UInt8(index), count: 1000 * index))
        }
        try mine.file("album #1/notes/read me.md", "# notes")

        let put = try await browsey(["put", "-r", mine.path("album #1"), "\(base)/"])
        #expect(put.status == 0, "\(put.output)")
        #expect(try served.contents("album #1/photo 7 ü.jpg") == Array(repeating: 7, count: 7000))
        #expect(try served.text("album #1/notes/read me.md") == "# notes")
        let again = try await browsey(["put", "-r", mine.path("album #1"), "\(base)/"])
        #expect(again.status == 0, "a second run skips files already there: \(again.output)")
        try mine.file("album #1/photo 1 ü.jpg", "changed")
        let clash = try await browsey(["put", mine.path("album #1/photo 1 ü.jpg"), "\(base)/album%20%231/"])
        #expect(clash.status == 5 && clash.output.contains("--overwrite"), "\(clash.output)")
        let replaced = try await browsey([
            "put", "--overwrite", mine.path("album #1/photo 1 ü.jpg"), "\(base)/album%20%231/",
        ])
        #expect(replaced.status == 0)
        #expect(try served.text("album #1/photo 1 ü.jpg") == "changed")
        // Changed here after its upload to the same size: another file, not one to skip.
        try mine.file("album #1/photo 2 ü.jpg", Array(repeating: UInt8(9), count: 2000))
        let sameSize = try await browsey([
            "put", mine.path("album #1/photo 2 ü.jpg"), "\(base)/album%20%231/",
        ])
        #expect(sameSize.status == 5 && sameSize.output.contains("--overwrite"), "\(sameSize.output)")
        #expect(try served.contents("album #1/photo 2 ü.jpg") == Array(repeating: 2, count: 2000))
        let folderAlone = try await browsey(["put", mine.path("album #1"), "\(base)/"])
        #expect(
            folderAlone.status == 2 && folderAlone.output.hasPrefix("Error: ")
                && folderAlone.output.contains("add -r") && !folderAlone.output.contains("Usage"),
            "\(folderAlone.output)")

        let found = try await browsey(["find", "\(base)/", "photo 7"])
        #expect(found.status == 0 && found.output.hasPrefix("/album #1/photo 7 ü.jpg\n"), "\(found.output)")

        #expect(try await browsey(["mkdir", "\(base)/backup"]).status == 0)
        #expect(try await browsey(["cp", "\(base)/start.txt", "/backup"]).output == "/backup/start.txt\n")
        #expect(try await browsey(["mv", "\(base)/start.txt", "/album #1"]).status == 0)
        #expect(
            served.exists("album #1/start.txt") && served.exists("backup/start.txt")
                && !served.exists("start.txt"))
        let folderKept = try await browsey(["rm", "\(base)/backup"])
        #expect(folderKept.status == 2 && folderKept.output.contains("add -r"), "\(folderKept.output)")
        #expect(served.exists("backup/start.txt"), "a folder is deleted only with -r")
        #expect(try await browsey(["rm", "-r", "\(base)/backup"]).status == 0)
        #expect(!served.exists("backup"))

        let copy = try TemporaryFolder()
        let get = try await browsey(["get", "-r", "\(base)/album%20%231", "-o", copy.path("album"), "--json"])
        #expect(get.status == 0 && get.output.contains("\"files\" : \"32\""), "\(get.output)")
        #expect(try copy.contents("album/photo 30 ü.jpg") == Array(repeating: 30, count: 30_000))
        #expect(try copy.text("album/notes/read me.md") == "# notes")
        let noop = try await browsey([
            "get", "-r", "\(base)/album%20%231", "-o", copy.path("album"), "--json",
        ])
        #expect(noop.output.contains("\"files\" : \"0\""), "a second run fetches nothing: \(noop.output)")

        let zipped = try await browsey(["get", "--zip", "\(base)/album%20%231"], in: copy.path)
        #expect(zipped.status == 0, "\(zipped.output)")
        let zip = try inspectZip(copy.path("album #1.zip"))
        #expect(
            zip.ok && zip.entries["photo 30 ü.jpg"]?.size == 30_000 && zip.entries["notes/read me.md"] != nil,
            "\(zip.entries.keys)")
        let both = try await browsey(["get", "--zip", "-r", "\(base)/album%20%231"], in: copy.path)
        #expect(both.status == 2 && both.output.contains("not both"), "\(both.output)")
    }

    @Test(
        "get -r from a server that lists .. or a name with a slash writes nothing, outside the folder or in it, and says why"
    )
    func hostileListingIsRefused() async throws {
        let work = try TemporaryFolder()
        // A server that is not Browsey: every listing names a file `../escaped.txt`, with the
        // listing's shape, and every file is the same bytes.
        let script = """
            import http.server, json, sys
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    if self.path.startswith("/api/list"):
                        item = {"name": sys.argv[1], "type": "file", "size": 4, "extension": "txt",
                                "modified": "2026-12-01T00:00:00.000Z", "absolutePath": "/srv/x"}
                        body = json.dumps({"path": "/", "absolutePath": "/srv", "items": [item]}).encode()
                        kind = "application/json"
                    else:
                        body, kind = b"evil", "application/octet-stream"
                    self.send_response(200)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *arguments):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            print("port", server.server_address[1], flush=True)
            server.serve_forever()
            """
        try work.file("server.py", script)
        try FileManager.default.createDirectory(
            atPath: work.path + "/copy/inside", withIntermediateDirectories: true)
        for name in ["../escaped.txt", "a/b.txt", ".."] {
            let stub = try ExternalCommand("python3", [work.path + "/server.py", name])
            defer { stub.terminate() }
            let announced = await stub.waitFor("port ")
            let port = try #require(
                announced.split(separator: " ").last.map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines)
                })
            let got = try await browsey(
                ["get", "-r", "http://127.0.0.1:\(port)/", "-o", "inside"], in: work.path + "/copy")
            #expect(got.status == 1, "\(name): \(got.output)")
            #expect(
                got.output.contains("Error: the server listed") && got.output.contains("not a file name"),
                "\(got.output)")
            #expect(
                !FileManager.default.fileExists(atPath: work.path + "/copy/escaped.txt"),
                "\(name) wrote outside")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: work.path + "/copy/inside").isEmpty,
                "\(name) wrote inside: \(got.output)")
        }
    }
}
