import BrowseyAPI
import FileTree
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import TestSupport
import Testing

@testable import BrowseyServer

@Suite("Folder archives")
struct ArchiveTests {
    @Test("CRC-32 matches the standard's check value and zlib on random data")
    func crc() {
        #expect(CRC32.of(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.of([]) == 0)
        var split = CRC32()
        let bytes = (0..<10_007).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        bytes[..<33].withUnsafeBytes { split.update($0) }
        bytes[33...].withUnsafeBytes { split.update($0) }
        #expect(split.value == CRC32.of(bytes))
    }

    @Test("a folder downloads as a zip that an independent reader accepts, names and bytes intact")
    func folder() async throws {
        let fixture = try ServerFixture.make()
        let big = (0..<1_300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
        try fixture.folder.file("docs/deep/er/big.bin", big)
        _ = try fixture.folder.folder("docs/empty folder")
        let app = Application(router: FileServer.router(fixture.configuration()))
        let archive = try TemporaryFolder(prefix: "browsey-zip")
        try await app.test(.router) { client in
            let answer = try await client.ask("/api/archive?path=%2Fdocs")
            #expect(answer.status == .ok && answer.headers[.contentType] == "application/zip")
            #expect(answer.headers[.contentDisposition]?.contains("docs.zip") == true)
            try answer.body.write(to: URL(fileURLWithPath: archive.path("docs.zip")))
            let root = try await client.ask("/api/archive")
            try root.body.write(to: URL(fileURLWithPath: archive.path("root.zip")))
            #expect(try await client.ask("/api/archive?path=%2Fbig.txt").status == .badRequest)
            #expect(try await client.ask("/api/archive?path=%2Fno%20such%20folder").status == .notFound)
            #expect(try await client.ask("/api/archive?path=%2F..%2F").status == .forbidden)
        }
        let docs = try inspectZip(archive.path("docs.zip"))
        #expect(docs.ok)
        #expect(
            Set(docs.entries.keys) == [
                "notes #1.md", "100% done.txt", "café.txt", "deep/", "deep/er/", "deep/er/big.bin",
                "empty folder/",
            ])
        #expect(
            docs.entries["deep/er/big.bin"]?.size == big.count
                && docs.entries["deep/er/big.bin"]?.crc == CRC32.of(big))
        #expect(docs.entries["café.txt"]?.size == "crème".utf8.count)
        let root = try inspectZip(archive.path("root.zip"))
        #expect(root.ok)
        #expect(root.entries["docs/café.txt"] != nil && root.entries["image.png"] != nil)
        // Hidden, ignored and links stay out, as in listings.
        #expect(
            !root.entries.keys.contains {
                $0.hasPrefix(".") || $0.hasSuffix(".log") || $0.hasPrefix("escape")
                    || $0.hasPrefix("inside-link")
            })
    }

    @Test("ZIP64 records are read back by an independent reader")
    func zip64() throws {
        var zip = ZipStream(forcesZip64: true)
        var out = ByteBuffer()
        zip.addFolder(name: "a", mode: 0o755, modifiedSeconds: 1_700_000_000, into: &out)
        let content = Array("zip64 ✓".utf8)
        var entry = zip.startFile(
            name: "a/b é.txt", mode: 0o644, modifiedSeconds: 1_700_000_000,
            expectedSize: UInt64(content.count), into: &out)
        out.writeBytes(content)
        content.withUnsafeBytes { zip.add($0, to: &entry) }
        zip.finishFile(entry, into: &out)
        zip.finish(into: &out)
        #expect(zip.offset == UInt64(out.readableBytes))
        let folder = try TemporaryFolder(prefix: "browsey-zip64")
        let path = try folder.file("forced.zip", Array(out.readableBytesView))
        let read = try inspectZip(path)
        #expect(read.ok && read.entries["a/b é.txt"]?.size == content.count && read.entries["a/"] != nil)
        #expect(
            ZipStream.dosTime(1_700_000_000) == (
                time: UInt16(22 << 11 | 13 << 5 | 10), date: UInt16((2023 - 1980) << 9 | 11 << 5 | 14)
            ))
    }

    @Test(
        "entry names are safe for every unpacker: no backslash, drive, stream, control character, leading slash or dot-dot"
    )
    func safeNames() async throws {
        let fixture = try ServerFixture.make()
        let names = [
            "a\\..\\b.txt", "C:evil.txt", "line\r\nfeed\t.txt", "bell\u{7}.txt", "a_.._b.txt",
            " .. /inside.txt", "ok é.txt",
        ]
        for name in names { try fixture.folder.file("odd/\(name)", Array(name.utf8)) }
        let archive = try TemporaryFolder(prefix: "browsey-zip-names")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/archive?path=%2Fodd")
            #expect(answer.status == .ok)
            try answer.body.write(to: URL(fileURLWithPath: archive.path("odd.zip")))
        }
        let read = try inspectZip(archive.path("odd.zip"))
        #expect(read.ok)
        #expect(
            Set(read.entries.keys) == [
                "____/", "____/inside.txt", "a_.._b.txt", "a_.._b (2).txt", "C_evil.txt", "line__feed_.txt",
                "bell_.txt", "ok é.txt",
            ], "\(read.entries.keys.sorted())")
        for name in read.entries.keys {
            #expect(ArchiveTests.isSafe(name), "\(name)")
        }
        // The rule alone, on what a walk never gives but a caller might.
        #expect(ArchiveEntryName.safe("/abs//x/./../y") == "abs/x/_/__/y")
        #expect(ArchiveEntryName.safe("D:\\Windows\\x") == "D__Windows_x")
        #expect(ArchiveEntryName.safe("") == "_")
        #expect(ArchiveEntryName.numbered("a/b.tar.gz", 3) == "a/b.tar (3).gz")
        #expect(ArchiveEntryName.numbered("a.b/.profile", 2) == "a.b/.profile (2)")
    }

    @Test("a folder deeper than PATH_MAX downloads whole: every level and the file at the bottom")
    func deeperThanPathMax() async throws {
        let fixture = try ServerFixture.make()
        let root = try ContainedRoot(path: fixture.folder.path(""))
        let name = String(repeating: "d", count: 200)
        try FileOperations.makeFolder(named: "deep", in: root.folder)
        var current = try root.folder.folder(named: "deep")
        var expected = ["" as String]
        for _ in 0..<25 {  // 25 × 201 bytes below /deep: past the 4,096 of PATH_MAX
            try FileOperations.makeFolder(named: name, in: current)
            current = try current.folder(named: name)
            expected.append(expected[expected.count - 1] + name + "/")
        }
        let writer = try AtomicFileWriter(named: "bottom.txt", in: current)
        try writer.write(Array("at the bottom".utf8))
        try writer.commit()
        let bottom = expected[expected.count - 1] + "bottom.txt"
        #expect(bottom.utf8.count > Int(PATH_MAX))

        let archive = try TemporaryFolder(prefix: "browsey-zip-deep")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/archive?path=%2Fdeep")
            #expect(answer.status == .ok)
            try answer.body.write(to: URL(fileURLWithPath: archive.path("deep.zip")))
        }
        let read = try inspectZip(archive.path("deep.zip"))
        #expect(read.ok)
        #expect(Set(read.entries.keys) == Set(expected.dropFirst()).union([bottom]))
        #expect(read.entries[bottom]?.size == "at the bottom".utf8.count)
        #expect(read.entries[bottom]?.crc == CRC32.of(Array("at the bottom".utf8)))
        try FileOperations.remove(named: "deep", in: root.folder)  // TemporaryFolder's cleanup goes by path
    }

    @Test(
        "names that are not UTF-8 (a Latin-1 é) are in the archive too: files, a folder and what is in it, each with its bytes"
    )
    func namesThatAreNotUTF8() async throws {
        let fixture = try ServerFixture.make()
        _ = try fixture.folder.folder("latin")
        func make(_ relative: [UInt8], content: [UInt8]? = nil) throws {
            try fixture.folder.make(systemPath: Array("latin/".utf8) + relative, contents: content)
        }
        let e9: UInt8 = 0xE9  // é in Latin-1: not UTF-8 on its own
        try make(Array("caf".utf8) + [e9] + Array(".txt".utf8), content: Array("latin-1".utf8))
        try make([0xFF, 0xFE] + Array(".bin".utf8), content: [1, 2, 3])
        try make(Array("x".utf8) + [0xE8] + Array(".txt".utf8), content: Array("grave".utf8))
        try make(Array("x".utf8) + [e9] + Array(".txt".utf8), content: Array("acute!".utf8))
        let resume = Array("r".utf8) + [e9] + Array("sum".utf8) + [e9]
        try make(resume)
        try make(resume + Array("/inside.txt".utf8), content: Array("in".utf8))
        let archive = try TemporaryFolder(prefix: "browsey-zip-latin")
        try await fixture.withClient { client in
            let answer = try await client.ask("/api/archive?path=%2Flatin")
            #expect(answer.status == .ok)
            try answer.body.write(to: URL(fileURLWithPath: archive.path("latin.zip")))
        }
        let read = try inspectZip(archive.path("latin.zip"))
        #expect(read.ok)
        let replaced = "\u{FFFD}"
        #expect(
            Set(read.entries.keys) == [
                "caf\(replaced).txt", "\(replaced)\(replaced).bin", "x\(replaced).txt",
                "x\(replaced) (2).txt", "r\(replaced)sum\(replaced)/",
                "r\(replaced)sum\(replaced)/inside.txt",
            ], "\(read.entries.keys.sorted())")
        #expect(read.entries["caf\(replaced).txt"]?.crc == CRC32.of(Array("latin-1".utf8)))
        #expect(read.entries["\(replaced)\(replaced).bin"]?.size == 3)
        let twins = [read.entries["x\(replaced).txt"]?.size, read.entries["x\(replaced) (2).txt"]?.size]
        #expect(Set(twins) == [5, 6], "both files whose names read alike are kept")
    }

    /// The rule in Docs/API.md, checked on a name as an unpacker reads it.
    static func isSafe(_ name: String) -> Bool {
        if name.hasPrefix("/") || name.contains("\\") || name.contains(":") { return false }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return false }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        let inner = name.hasSuffix("/") ? components.dropLast() : components[...]
        return inner.allSatisfy { !$0.isEmpty && !$0.allSatisfy { $0 == "." || $0 == " " } }
    }
}
