import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("WebDAV reads the served folder under the same rules as the API")
struct WebDAVReadingTests {
    @Test("OPTIONS says classes 1 and 2, the methods, and MS-Author-Via for Windows")
    func options() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.dav("/dav/", .options)
            #expect(answer.status == .ok)
            #expect(answer.headers[.davHeader] == "1, 2")
            #expect(answer.headers[.msAuthorViaHeader] == "DAV")
            #expect(answer.headers[.allow]?.contains("PROPFIND") == true)
            #expect(answer.headers[.allow]?.contains("LOCK") == true)
        }
    }

    @Test(
        "PROPFIND depth 1 lists the visible members with their properties, never a hidden, ignored or outward name"
    )
    func propfindDepthOne() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.dav("/dav/", DAVMethod.propfind, headers: [.depthHeader: "1"])
            #expect(answer.status.code == 207)
            let names = hrefs(answer.text)
            #expect(names.first == "/dav/")
            #expect(names.contains("/dav/docs/"))
            #expect(names.contains("/dav/big.txt"))
            #expect(names.contains("/dav/inside-link/"))
            #expect(
                !names.contains { $0.contains(".env") || $0.contains("build.log") || $0.contains("escape") })
            #expect(answer.text.contains("<D:getcontentlength>1000</D:getcontentlength>"))
            #expect(answer.text.contains("<D:collection/>"))
            #expect(answer.text.contains("<D:getetag>&quot;"))
        }
    }

    @Test("a link pointed out and back over and over never has its outside target's size listed")
    func linkRetargetedDuringListing() async throws {
        let fixture = try ServerFixture.make()
        // The link leads into a folder that is swapped for a link out and back: 1,000 bytes
        // inside, 18 outside.
        try fixture.folder.file("swapped/secret.txt", Array(repeating: UInt8(ascii: "a"), count: 1000))
        _ = try fixture.folder.symlink("listed/moving.txt", to: "../swapped/secret.txt")
        let swapper = try fixture.swapperOfFolderAndLinkOut("swapped")
        try await fixture.withClient { client in
            let sizes = try await swapper.tally(["<D:getcontentlength>18<"], rounds: 400) { _ in
                try await client.dav("/dav/listed/", DAVMethod.propfind, headers: [.depthHeader: "1"]).text
            }
            #expect(sizes.isEmpty, "the outside file's size: \(sizes)")
            let after = try await client.dav("/dav/listed/", DAVMethod.propfind, headers: [.depthHeader: "1"])
            #expect(after.text.contains("<D:getcontentlength>1000<"), "put back: \(after.text)")
        }
    }

    @Test("hrefs are percent-encoded and decode back to the names on disk")
    func awkwardNames() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.dav("/dav/docs", DAVMethod.propfind, headers: [.depthHeader: "1"])
            let names = hrefs(answer.text)
            #expect(names.contains("/dav/docs/notes%20%231.md"))
            #expect(names.contains("/dav/docs/100%25%20done.txt"))
            #expect(names.contains("/dav/docs/caf%C3%A9.txt"))
            let file = try await client.dav("/dav/docs/100%25%20done.txt", .get)
            #expect(file.text == "done")
        }
    }

    @Test(
        "each member's getetag is the ETag its GET sends, its type and name those of the file, even from before 1970"
    )
    func listedPropertiesMatchTheFiles() async throws {
        let fixture = try ServerFixture.make()
        // A file dated before 1970: its ETag's time is negative.
        let old = fixture.folder.path("docs/old.txt")
        try "old".write(toFile: old, atomically: false, encoding: .utf8)
        var times = [
            timespec(tv_sec: -86_401, tv_nsec: 500_000_000), timespec(tv_sec: -86_401, tv_nsec: 500_000_000),
        ]
        #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)
        try await fixture.withClient { client in
            let answer = try await client.dav("/dav/docs/", DAVMethod.propfind, headers: [.depthHeader: "1"])
            let responses = answer.text.components(separatedBy: "<D:response>").dropFirst()
            var files = 0
            for response in responses {
                let href = try #require(hrefs(response).first)
                guard !href.hasSuffix("/") else { continue }
                files += 1
                let listed = try #require(value("getetag", in: response))
                    .replacingOccurrences(of: "&quot;", with: "\"")
                let file = try await client.dav(href, .get)
                #expect(file.headers[.eTag] == listed, "\(href)")
                let mediaType = file.headers[.contentType]?.split(separator: ";").first.map(String.init)
                #expect(value("getcontenttype", in: response) == mediaType, "\(href)")
                let name = try #require(href.split(separator: "/").last?.removingPercentEncoding)
                #expect(
                    value("displayname", in: response) == name.replacingOccurrences(of: "&", with: "&amp;"))
            }
            #expect(files >= 4)
            #expect(
                try #require(value("getetag", in: answer.text.components(separatedBy: "old.txt")[1]))
                    .contains("--"))
        }
    }

    @Test("a folder opened in a browser goes to the web UI's page of it, keeping the query")
    func folderInABrowser() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let answer = try await client.dav("/dav/docs/?token=t", .get)
            #expect(answer.status == .seeOther)
            #expect(answer.headers[.location] == "/docs/?token=t")
            #expect(answer.body.isEmpty)
        }
    }

    @Test("PROPFIND with Depth infinity, or none, is refused with the propfind-finite-depth precondition")
    func infinityRefused() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            for headers: HTTPFields in [[.depthHeader: "infinity"], [:]] {
                let answer = try await client.dav("/dav/", DAVMethod.propfind, headers: headers)
                #expect(answer.status == .forbidden)
                #expect(answer.text.contains("<D:propfind-finite-depth/>"))
            }
        }
    }

    @Test("PROPFIND of named properties answers the missing ones 404 and a quota from the file system")
    func namedProperties() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let body = """
                <?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:prop><D:getcontentlength/>\
                <D:quota-available-bytes/><Z:unknown/></D:prop></D:propfind>
                """
            let answer = try await client.dav(
                "/dav/big.txt", DAVMethod.propfind, headers: [.depthHeader: "0"], body: body)
            #expect(answer.status.code == 207)
            #expect(answer.text.contains("<D:getcontentlength>1000</D:getcontentlength>"))
            #expect(answer.text.contains("<D:quota-available-bytes>"))
            #expect(answer.text.contains("<X:unknown xmlns:X=\"urn:z\"/>"))
            #expect(answer.text.contains("HTTP/1.1 404 Not Found"))
        }
    }

    @Test("GET of a file is /api/file's answer: the bytes, a range, validators")
    func getWithRange() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            let whole = try await client.dav("/dav/big.txt", .get)
            #expect(whole.status == .ok && whole.body.count == 1000)
            let etag = try #require(whole.headers[.eTag])
            let part = try await client.dav("/dav/big.txt", .get, headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent && part.body.count == 10)
            #expect(part.headers[.contentRange] == "bytes 10-19/1000")
            let unchanged = try await client.dav("/dav/big.txt", .get, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
        }
    }

    @Test("hidden, ignored, outward and climbing paths are not found or refused, never served")
    func refusedPaths() async throws {
        let fixture = try ServerFixture.make()
        try await fixture.withClient { client in
            #expect(try await client.dav("/dav/.env", .get).status == .notFound)
            #expect(
                try await client.dav("/dav/build.log", DAVMethod.propfind, headers: [.depthHeader: "0"])
                    .status == .notFound)
            for path in [
                "/dav/escape-file.txt", "/dav/escape/secret.txt", "/dav/%2e%2e/secret.txt",
                "/dav/docs/..%2f..%2fsecret.txt",
            ] {
                let answer = try await client.dav(path, .get)
                #expect([.forbidden, .notFound, .badRequest].contains(answer.status), "\(path)")
                #expect(!answer.text.contains("TOP SECRET"), "\(path)")
            }
        }
    }
}

/// The text of the first `D:name` element in `text`.
private func value(_ name: String, in text: String) -> String? {
    guard let start = text.range(of: "<D:\(name)>"),
        let end = text.range(of: "</D:\(name)>", range: start.upperBound..<text.endIndex)
    else { return nil }
    return String(text[start.upperBound..<end.lowerBound])
}
