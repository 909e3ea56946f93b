import FileTree
import Testing

@Suite("File names")
struct FileNameTests {
    @Test("the extension follows Node's extname rules, without the dot")
    func extensions() {
        #expect(FileName.pathExtension(of: "photo.JPG") == "JPG")
        #expect(FileName.pathExtension(of: "archive.tar.gz") == "gz")
        #expect(FileName.pathExtension(of: ".gitignore") == nil)
        #expect(FileName.pathExtension(of: ".config.json") == "json")
        #expect(FileName.pathExtension(of: "README") == nil)
        #expect(FileName.pathExtension(of: "trailing.") == nil)
        #expect(FileName.pathExtension(of: "..") == nil)
    }

    @Test("the display name is the name without its extension")
    func displayNames() {
        #expect(FileName.displayName(of: "Report.final.pdf") == "Report.final")
        #expect(FileName.displayName(of: ".gitignore") == ".gitignore")
        #expect(FileName.displayName(of: "Makefile") == "Makefile")
    }

    @Test("a valid component is one non-empty name of at most 255 bytes without / or NUL")
    func components() {
        #expect(FileName.isValidComponent("notes #1.md"))
        #expect(FileName.isValidComponent(String(repeating: "a", count: 255)))
        #expect(!FileName.isValidComponent(String(repeating: "a", count: 256)))
        #expect(!FileName.isValidComponent(""))
        #expect(!FileName.isValidComponent("."))
        #expect(!FileName.isValidComponent(".."))
        #expect(!FileName.isValidComponent("a/b"))
        #expect(!FileName.isValidComponent("a\0b"))
    }

    @Test("the last component of a path is the name after its last slash, and / for the root")
    func lastComponents() {
        #expect(FileName.lastComponent(of: "/Photos/2024/beach.jpg") == "beach.jpg")
        #expect(FileName.lastComponent(of: "/Photos") == "Photos")
        #expect(FileName.lastComponent(of: "/") == "/")
        #expect(FileName.lastComponent(of: "ffmpeg") == "ffmpeg")
    }
}
