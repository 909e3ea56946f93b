import FileTree

/// A helper program run with fixed arguments (no shell), reading a file as its standard input
/// and writing its answer to standard output, by ``BoundedProcess``: its failures as
/// ``ThumbnailError``s.
enum ChildProcess {
    /// The first executable file named `name` in `PATH`.
    static func find(_ name: String, path: String? = nil) -> String? {
        BoundedProcess.find(name, path: path)
    }

    /// Runs `executable` with `arguments`, `input` as its standard input; its standard output,
    /// or an error when it fails, outlives `timeout` (then it is killed) or writes more than
    /// `outputLimit` bytes. `confined`: reaching only the system's files and the one it reads
    /// (``confinement(reading:)``).
    static func run(
        _ executable: String, _ arguments: [String], input: Int32, timeout: Duration, outputLimit: Int,
        confined: Bool = true
    ) throws(ThumbnailError) -> [UInt8] {
        let name = FileName.lastComponent(of: executable)
        let output = BoundedProcess.run(
            executable, arguments: [executable] + arguments, input: .descriptor(input), timeout: timeout,
            outputLimit: outputLimit, confinement: confined ? confinement(reading: input) : nil)
        switch output.ending {
        case .exited(0): return output.bytes
        case .exited: throw ThumbnailError(.posterFailed, "\(name) failed")
        case .timedOut: throw ThumbnailError(.posterFailed, "\(name) took longer than \(timeout)")
        case .tooLarge: throw ThumbnailError(.posterFailed, "\(name) wrote more than \(outputLimit) bytes")
        case .notStarted: throw ThumbnailError(.posterFailed, "\(name) could not be started")
        }
    }

    /// What a helper may reach (``Confinement``): the system's programs and data (and the font
    /// cache, which pdftoppm would otherwise build anew each run), and the one file it reads.
    /// It reads that file as `/dev/stdin`, which the kernel opens, and checks, as the file
    /// itself: the rule is on the server's open descriptor of it, not on a path that could be
    /// swapped for a link meanwhile. A decoder that a crafted file takes over can open nothing
    /// else, the served folder and the user's home included.
    static func confinement(reading input: Int32) -> Confinement {
        var confinement = Confinement.system(readable: ["/var/cache/fontconfig"])
        confinement.readableDescriptors = [input]
        return confinement
    }
}
