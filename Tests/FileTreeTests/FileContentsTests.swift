import FileTree
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Whole reads of small files")
struct FileContentsTests {
    @Test("a read stops at the limit, or at the end of a shorter file, and leaves the offset alone")
    func readsUpToTheLimit() throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("notes.txt", "0123456789")
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(FileContents.read(descriptor, limit: 4) == Array("0123".utf8))
        #expect(FileContents.read(descriptor, limit: 100) == Array("0123456789".utf8))
        #expect(FileContents.read(descriptor, limit: 0) == [])
        #expect(lseek(descriptor, 0, SEEK_CUR) == 0)
    }

    @Test("a descriptor that cannot be read gives nil, not an empty file")
    func unreadableGivesNil() throws {
        let folder = try TemporaryFolder()
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(FileContents.read(descriptor, limit: 16) == nil)
    }
}
