#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX file calls a download needs, with errors as ``BrowseyClientError``; only
/// ``flushFileSystem(of:)`` is for callers.
public enum LocalFile {
    /// The size of the file at `path`, or nil when there is none.
    static func size(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// Opens `path` for writing: appended to, or emptied first.
    static func openForWriting(_ path: String, appending: Bool) throws(BrowseyClientError) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw failure("cannot write \(path)") }
        return descriptor
    }

    /// Writes all of `bytes`.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws(BrowseyClientError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                guard let base = $0.baseAddress else { return 0 }
                return write(descriptor, base + written, $0.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw failure("cannot write \(path)") }
            written += count
        }
    }

    /// Flushes to disk (unless told not to) and closes.
    static func finish(_ descriptor: Int32, path: String, flushing: Bool = true) throws(BrowseyClientError) {
        defer { close(descriptor) }
        guard !flushing || fsync(descriptor) == 0 else { throw failure("cannot flush \(path)") }
    }

    /// Flushes everything written so far to disk, for many files at once (`sync`: Swift's
    /// Glibc module has no `syncfs`). `path` names where the files are, for the record.
    public static func flushFileSystem(of path: String) {
        sync()
    }

    /// Puts `from` in place of `to` in one step.
    static func move(_ from: String, to: String) throws(BrowseyClientError) {
        guard rename(from, to) == 0 else { throw failure("cannot move \(from) to \(to)") }
    }

    /// The text of a small file, if any.
    static func text(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self)
    }

    /// Replaces a small file's text (or removes it with nil).
    static func setText(_ text: String?, at path: String) {
        guard let text else {
            unlink(path)
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = try? writeAll(descriptor, Array(text.utf8), path: path)
    }

    private static func failure(_ message: String) -> BrowseyClientError {
        BrowseyClientError(.localFile, "\(message): \(String(cString: strerror(errno)))")
    }
}
