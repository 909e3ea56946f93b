import Testing

@testable import BrowseyServer

@Suite("A path another instance published never names a place outside the folder")
struct ChangeFeedPathTests {
    @Test("climbing, dotted and doubled paths from the database all land below the root")
    func hostilePaths() {
        let root = "/srv/files"
        #expect(ChangeFeed.absolutePath("/docs/a.txt", in: root) == "/srv/files/docs/a.txt")
        #expect(ChangeFeed.absolutePath("/../../etc/passwd", in: root) == "/srv/files/etc/passwd")
        #expect(ChangeFeed.absolutePath("docs/./../x", in: root) == "/srv/files/docs/x")
        #expect(ChangeFeed.absolutePath("//docs//b", in: root) == "/srv/files/docs/b")
        #expect(ChangeFeed.absolutePath("", in: root) == root)
        #expect(ChangeFeed.absolutePath("/..", in: root) == root)
        #expect(ChangeFeed.absolutePath("/a", in: "/") == "/a")
    }
}
