import Dispatch

/// Runs blocking work (system calls that wait for the disk) on a Dispatch thread, so neither
/// Swift's cooperative pool nor the main actor waits for it.
///
/// FileTree and the modules above it that stay free of SwiftNIO (DocumentBrowser) use this one
/// helper; a module that already links NIO uses NIO's `NIOThreadPool` instead.
///
/// ```swift
/// let entries = try await BlockingWork.run { () throws(FileTreeError) in
///     try reader.entries(at: "/srv/files")
/// }
/// ```
public enum BlockingWork {
    /// Runs `work` on a Dispatch thread and returns what it returns, or throws what it throws.
    ///
    /// The work is not cancelled with the calling task: pass it a flag to check if it can stop
    /// early (``DirectoryReader/read(at:depth:extraAttributes:)`` does).
    public static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(Failure) in try work() })
            }
        }
        return try result.get()
    }
}
