#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads text files for the content index, one thread's: each file's folded text (see
/// ``NameFolding``) into a buffer it keeps. An ASCII file is handed over as read (a capital has
/// its small letter's trigram code); any other is decoded and folded as names are. What counts as
/// text is ``TextDecoding``'s.
///
/// Files are opened relative to the root, held open: a path's lookup then starts below it.
final class ContentReader {
    /// The indexed folder, absolute.
    let root: String
    /// Larger files are not read.
    let limit: Int
    private var buffer: [UInt8] = []
    /// The root, open (-1: it could not be, and paths are opened whole).
    private let rootDescriptor: Int32

    init(root: String, limit: Int) {
        self.root = root
        self.limit = limit
        rootDescriptor = open(root.isEmpty ? "/" : root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        if rootDescriptor >= 0 { close(rootDescriptor) }
    }

    /// Calls `body` with the text of the file at `path` (relative to the root), folded, and
    /// whether it is all ASCII, and returns true; false, without calling it, when the file is not
    /// text, too large, or unreadable.
    func withText(of path: String, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Void) -> Bool {
        // Non-blocking: a FIFO put where a file was would otherwise wait for a writer forever (it
        // is then refused as not a regular file).
        let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        let descriptor =
            rootDescriptor >= 0 && path.hasPrefix("/")
            ? openat(rootDescriptor, String(path.dropFirst()), flags) : open(root + path, flags)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let count = load(descriptor) else { return false }
        return buffer.withUnsafeBufferPointer { all -> Bool in
            switch TextDecoding.form(of: UnsafeBufferPointer(rebasing: all[0..<count])) {
            case .utf8(let text) where TrigramKeys.isASCII(text): body(text, true)
            case .utf8(let text):
                NameFolding.fold(String(decoding: text, as: UTF8.self)).withUnsafeBufferPointer {
                    body($0, false)
                }
            case .utf16(let text): NameFolding.fold(text).withUnsafeBufferPointer { body($0, false) }
            case nil: return false
            }
            return true
        }
    }

    /// Reads the whole file into the buffer; its length, or `nil` when it is over the limit or
    /// cannot be read.
    private func load(_ descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_size <= limit
        else { return nil }
        // One byte more than the file says: a file that grew since is seen to have.
        let wanted = Int(status.st_size) + 1
        if buffer.count < wanted { buffer = [UInt8](repeating: 0, count: max(wanted, buffer.count * 2)) }
        var count = 0
        while true {
            if count == buffer.count {
                guard count <= limit else { return nil }
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let done = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress.map { $0 + count }, raw.count - count)
            }
            if done < 0 && errno == EINTR { continue }
            guard done >= 0 else { return nil }
            if done == 0 { return count <= limit ? count : nil }
            count += done
        }
    }
}
