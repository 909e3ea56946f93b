import BrowseyServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Requests as Windows' Mini-Redirector and macOS Finder send them (from their documented
/// traces), replayed in order.
@Suite("WebDAV takes Explorer's and Finder's requests as they send them")
struct WebDAVClientQuirksTests {
    @Test(
        "Explorer's save: OPTIONS, PROPFIND with Microsoft's properties, empty PUT, LOCK, PROPPATCH Win32 times, PUT, UNLOCK"
    )
    func explorerSave() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let options = try await client.dav(
                "/dav/", .options, headers: [.userAgent: "Microsoft-WebDAV-MiniRedir/10.0.19045"])
            #expect(options.headers[.msAuthorViaHeader] == "DAV")
            let probe = """
                <?xml version="1.0" encoding="utf-8" ?><D:propfind xmlns:D="DAV:"><D:prop><D:name/><D:parentname/>\
                <D:href/><D:ishidden/><D:isreadonly/><D:getcontenttype/><D:contentclass/><D:getcontentlanguage/>\
                <D:creationdate/><D:lastaccessed/><D:getlastmodified/><D:getcontentlength/><D:iscollection/>\
                <D:isstructureddocument/><D:defaultdocument/><D:displayname/><D:isroot/><D:resourcetype/></D:prop></D:propfind>
                """
            let listed = try await client.dav(
                "/dav/docs", DAVMethod.propfind, headers: [.depthHeader: "1", .translateHeader: "f"],
                body: probe)
            #expect(listed.status.code == 207)
            #expect(listed.text.contains("<D:isroot/>") && listed.text.contains("404 Not Found"))
            #expect(
                try await client.dav(
                    "/dav/docs/New%20Text%20Document.txt", .put, headers: [.contentLength: "0"]
                ).status == .created)
            let locked = try await client.dav(
                "/dav/docs/New%20Text%20Document.txt", DAVMethod.lock,
                headers: [.init("Timeout")!: "Second-3600"], body: lockBody)
            let token = try #require(locked.headers[.lockTokenHeader])
            let times = """
                <?xml version="1.0" encoding="utf-8" ?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:">\
                <D:set><D:prop><Z:Win32CreationTime>Tue, 24 Nov 2026 10:00:00 GMT</Z:Win32CreationTime>\
                <Z:Win32LastAccessTime>Tue, 24 Nov 2026 10:00:00 GMT</Z:Win32LastAccessTime>\
                <Z:Win32LastModifiedTime>Tue, 24 Nov 2026 10:00:00 GMT</Z:Win32LastModifiedTime>\
                <Z:Win32FileAttributes>00000020</Z:Win32FileAttributes></D:prop></D:set></D:propertyupdate>
                """
            let patched = try await client.dav(
                "/dav/docs/New%20Text%20Document.txt", DAVMethod.proppatch,
                headers: [.ifHeader: "(\(token))"], body: times)
            #expect(
                patched.status.code == 207 && !patched.text.contains("403") && !patched.text.contains("424"))
            #expect(
                try await client.dav(
                    "/dav/docs/New%20Text%20Document.txt", .put, headers: [.ifHeader: "(\(token))"],
                    body: "hello from Windows"
                ).status == .noContent)
            #expect(
                try await client.dav(
                    "/dav/docs/New%20Text%20Document.txt", DAVMethod.unlock,
                    headers: [.lockTokenHeader: token]
                )
                .status == .noContent)
        }
        #expect(fixture.text("docs/New Text Document.txt") == "hello from Windows")
    }

    @Test(
        "Finder's mount: PROPFIND of the root's quota, probes of ._ and .DS_Store that find nothing, then a listing"
    )
    func finderMount() async throws {
        let fixture = try WritableFixture.make()
        try await fixture.withClient { client in
            let quota = """
                <?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:quota-available-bytes/>\
                <D:quota-used-bytes/></D:prop></D:propfind>
                """
            let root = try await client.dav(
                "/dav/", DAVMethod.propfind,
                headers: [.depthHeader: "0", .userAgent: "WebDAVFS/3.0.0 (03008000) Darwin/22.1.0"],
                body: quota)
            #expect(root.status.code == 207 && root.text.contains("<D:quota-used-bytes>"))
            for probe in ["/dav/._.", "/dav/.DS_Store", "/dav/docs/._notes%20%231.md"] {
                #expect(
                    try await client.dav(probe, DAVMethod.propfind, headers: [.depthHeader: "0"]).status
                        == .notFound)
            }
            let listing = """
                <?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:getlastmodified/>\
                <D:getcontentlength/><D:creationdate/><D:resourcetype/></D:prop></D:propfind>
                """
            let answer = try await client.dav(
                "/dav/docs/", DAVMethod.propfind, headers: [.depthHeader: "1"], body: listing)
            #expect(hrefs(answer.text).count == 4)
        }
    }
}
