import FileTree
import Foundation
import TestSupport
import Testing

@testable import Thumbnails

#if canImport(Glibc)
    import Glibc
#endif

/// A poster helper decodes a file from the user's folder: one that a crafted file takes over
/// must find nothing else to open.
@Suite(
    "A poster helper reaches the file it reads and nothing else",
    .enabled(if: Confinement.kernelVersion > 0, "the kernel confines programs (Landlock)"))
struct PosterConfinementTests {
    @Test("it reads its file as /dev/stdin, and not the file beside it, the folder, or a home")
    func readsOnlyItsFile() throws {
        let folder = try TemporaryFolder()
        try folder.file("clip.mp4", "the clip's bytes\n")
        try folder.file("private.txt", "a neighbour's secret\n")
        let input = open(folder.path("clip.mp4"), O_RDONLY)
        try #require(input >= 0)
        defer { close(input) }
        let shell = BoundedProcess.find("sh") ?? "/bin/sh"
        // What a taken-over decoder could try: its input, then everything else it can name.
        let script = """
            cat /dev/stdin; cat '\(folder.path("private.txt"))'; ls '\(folder.path)'; cat "$HOME/.profile"
            ls /tmp; exit 0
            """
        let said = try ChildProcess.run(
            shell, ["-c", script], input: input, timeout: .seconds(10), outputLimit: 1 << 20)
        #expect(String(decoding: said, as: UTF8.self) == "the clip's bytes\n")
        _ = lseek(input, 0, SEEK_SET)
        let unconfined = try ChildProcess.run(
            shell, ["-c", script], input: input, timeout: .seconds(10), outputLimit: 1 << 20, confined: false)
        #expect(
            String(decoding: unconfined, as: UTF8.self).contains("a neighbour's secret"), "without, it can")
    }
}
