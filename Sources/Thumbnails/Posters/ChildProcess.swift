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
    /// `outputLimit` bytes.
    static func run(
        _ executable: String, _ arguments: [String], input: Int32, timeout: Duration, outputLimit: Int
    ) throws(ThumbnailError) -> [UInt8] {
        let name = FileName.lastComponent(of: executable)
        let output = BoundedProcess.run(
            executable, arguments: [executable] + arguments, input: .descriptor(input), timeout: timeout,
            outputLimit: outputLimit)
        switch output.ending {
        case .exited(0): return output.bytes
        case .exited: throw ThumbnailError(.posterFailed, "\(name) failed")
        case .timedOut: throw ThumbnailError(.posterFailed, "\(name) took longer than \(timeout)")
        case .tooLarge: throw ThumbnailError(.posterFailed, "\(name) wrote more than \(outputLimit) bytes")
        case .notStarted: throw ThumbnailError(.posterFailed, "\(name) could not be started")
        }
    }
}
