import Foundation
import Synchronization
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
        // The memo's clock is the test's: first in the second the folder last changed, then two
        // seconds on (no waiting, and no stall of the machine can move it).
        var status = stat()
        try #require(stat(folder.path, &status) == 0)
        let clock = TestClock(seconds: Int64(max(status.st_mtim.tv_sec, status.st_ctim.tv_sec)))
        let memo = FolderNamesMemo(secondsNow: { clock.seconds.load(ordering: .relaxed) })
        let names = { memo.namesNotASCII(in: open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) }
        #expect(names() == [latin])
        #expect(names() == [latin] && memo.reads == 2, "a folder changed within the second is not remembered")
        clock.seconds.add(2, ordering: .relaxed)
        #expect(names() == [latin] && names() == [latin] && memo.reads == 3, "read once, then remembered")
        // A change more than a tick of the file system's clock later (ticks are 1-10 ms) gives the
        // folder other times, as it would two seconds on.
        Thread.sleep(forTimeInterval: 0.05)
        let other = Array("na".utf8) + [0xEF] + Array("ve".utf8)
        try folder.make(systemPath: other, contents: [2])
        #expect(Set(names() ?? []) == [latin, other] && memo.reads == 4, "a name added is seen at once")
        #expect(found("na\u{FFFD}ve", in: folder) == other)
    }

    @Test("a full memo forgets the folder asked for least recently")
    func fullMemoForgetsTheLeastRecentlyUsed() throws {
        let folders = try (0..<3).map { _ in try TemporaryFolder() }
        for folder in folders {
            for number in 0..<FolderNamesMemo.smallestRemembered {
                let descriptor = open(
                    folder.path + "/name-\(number).txt", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
                try #require(descriptor >= 0)
                close(descriptor)
            }
        }
        // Settled from the start: the memo's clock is a minute past every folder's last change.
        let memo = FolderNamesMemo(capacity: 2, secondsNow: { FolderNamesMemo.realtimeSeconds() + 60 })
        let names = { (index: Int) in
            _ = memo.namesNotASCII(in: open(folders[index].path, O_RDONLY | O_DIRECTORY | O_CLOEXEC))
        }
        names(0)
        names(1)
        names(0)
        #expect(memo.reads == 2, "both remembered")
        names(2)  // full: folder 1, asked for before folder 0's second ask, is forgotten
        #expect(memo.reads == 3)
        names(0)
        names(2)
        #expect(memo.reads == 3, "folder 0, used recently, and the new folder 2 are kept")
        names(1)
        #expect(memo.reads == 4, "folder 1 was forgotten")
    }
}

/// A clock a test moves by hand.
private final class TestClock: Sendable {
    let seconds: Atomic<Int64>

    init(seconds: Int64) {
        self.seconds = Atomic(seconds)
    }
}
