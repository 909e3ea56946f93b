import Foundation
import TestSupport
import Testing

@testable import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Finding names that are not UTF-8 by how they read")
struct SystemNamesTests {
    /// The bytes `SystemNames.cPath` finds for `text` under `folder`, without the folder's path.
    private func found(_ text: String, in folder: TemporaryFolder) -> [UInt8]? {
        guard let cPath = SystemNames.cPath(spelling: folder.path + "/" + text) else { return nil }
        return Array(cPath.dropLast().map { UInt8(bitPattern: $0) }.dropFirst(folder.path.utf8.count + 1))
    }

    @Test("a path spelled with U+FFFD finds the one name that reads so, wherever its bad bytes are")
    func findsTheNameThatReadsTheSame() throws {
        let folder = try TemporaryFolder()
        let names: [[UInt8]] = [
            Array("caf".utf8) + [0xE9],  // reads "caf\u{FFFD}"
            [0xE9] + Array("t".utf8) + [0xE9],  // "\u{FFFD}t\u{FFFD}"
            Array("na".utf8) + [0xEF, 0xBF] + Array("ve".utf8),  // a cut sequence: "na\u{FFFD}ve"
            Array("cafe".utf8), Array("café".utf8), Array("caf\u{FFFD}e".utf8),  // read otherwise
        ]
        for name in names { try folder.make(systemPath: name, contents: name) }
        #expect(found("caf\u{FFFD}", in: folder) == names[0])
        #expect(found("\u{FFFD}t\u{FFFD}", in: folder) == names[1])
        #expect(found("na\u{FFFD}ve", in: folder) == names[2])
        #expect(found("caf\u{FFFD}\u{FFFD}", in: folder) == nil, "no name reads so")
        #expect(found("ca\u{FFFD}", in: folder) == nil, "a prefix is not the name")
        #expect(found("cafe", in: folder) == nil, "a path without U+FFFD is not looked up")
    }

    @Test("two names that read alike are neither found")
    func twoNamesThatReadAlike() throws {
        let folder = try TemporaryFolder()
        try folder.make(systemPath: Array("x".utf8) + [0xE8], contents: [1])
        try folder.make(systemPath: Array("x".utf8) + [0xE9], contents: [2])
        #expect(found("x\u{FFFD}", in: folder) == nil)
    }

    @Test("a large folder's names are read once until it changes, and a change is seen")
    func largeFolderIsRemembered() throws {
        let folder = try TemporaryFolder()
        for number in 0..<FolderNamesMemo.smallestRemembered {
            let descriptor = open(folder.path + "/name-\(number).txt", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
            try #require(descriptor >= 0)
            close(descriptor)
        }
        let latin = Array("caf".utf8) + [0xE9]
        try folder.make(systemPath: latin, contents: [1])
        let memo = FolderNamesMemo()
        let names = { memo.namesNotASCII(in: open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) }
        #expect(names() == [latin])
        #expect(names() == [latin] && memo.reads == 2, "a folder changed within the second is not remembered")
        Thread.sleep(forTimeInterval: 2.1)
        #expect(names() == [latin] && names() == [latin] && memo.reads == 3, "read once, then remembered")
        let other = Array("na".utf8) + [0xEF] + Array("ve".utf8)
        try folder.make(systemPath: other, contents: [2])
        #expect(Set(names() ?? []) == [latin, other] && memo.reads == 4, "a name added is seen at once")
        #expect(found("na\u{FFFD}ve", in: folder) == other)
    }
}
