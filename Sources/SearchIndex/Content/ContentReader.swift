import FileTree

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
/// Each file is opened below the root held open (``FileTree/ContainedRoot``), by its whole path
/// or by its name in its folder opened so: a folder swapped for a link that leads out of the root
/// is refused, not followed, and the file's own name is opened without following a link. A file
/// whose folder is not held is opened by its whole path below the root (one call);
/// a second file in a row from that folder has the folder opened and held. The last
/// ``heldFolders`` folders are kept open, so files of one folder read together cost one lookup of
/// a name each, and files read from folder after folder (oldest first, say) cost one open each.
final class ContentReader {
    /// The indexed folder, absolute.
    let root: String
    /// Larger files are not read.
    let limit: Int
    private var buffer: [UInt8] = []
    /// The root, open (`nil`: it could not be, and nothing is read).
    private let contained: ContainedRoot?
    /// The folders held open, by path from the root without its first `/`, the latest used last.
    private var folders: [(path: Substring, descriptor: Int32)] = []
    /// The folder of the last file opened by its whole path, not held.
    private var passed: Substring?

    /// How many folders are held open at most.
    static let heldFolders = 8

    init(root: String, limit: Int) {
        self.root = root
        self.limit = limit
        contained = try? ContainedRoot(path: root.isEmpty ? "/" : root)
    }

    deinit {
        for folder in folders { close(folder.descriptor) }
    }

    /// Closes the folders held: the next file opens its folder below the root again (one held
    /// for long could have been moved out of the root meanwhile).
    func forgetFolders() {
        for folder in folders { close(folder.descriptor) }
        folders.removeAll()
        passed = nil
    }

    /// The folder `path` (from the root, without its first `/`; empty for the root) open and
    /// held, or `nil` when it is not held and the file should be opened by its whole path (the
    /// last file was not from this folder); -1 when it cannot be opened inside the root.
    private func folder(_ path: Substring) -> Int32? {
        guard let contained else { return -1 }
        if path.isEmpty { return contained.folder.descriptor }
        if let last = folders.last, last.path == path { return last.descriptor }
        if let index = folders.firstIndex(where: { $0.path == path }) {
            let held = folders.remove(at: index)
            folders.append(held)
            return held.descriptor
        }
        guard passed == path else {
            passed = path
            return nil
        }
        passed = nil
        guard
            let descriptor = try? contained.open(
                String(path), flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        else { return -1 }
        if folders.count == Self.heldFolders { close(folders.removeFirst().descriptor) }
        folders.append((path, descriptor))
        return descriptor
    }

    /// Calls `body` with the text of the file at `path` (relative to the root), folded, and
    /// whether it is all ASCII, and returns true; false, without calling it, when the file is not
    /// text, too large, or unreadable.
    func withText(of path: String, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Void) -> Bool {
        // Non-blocking: a FIFO put where a file was would otherwise wait for a writer forever (it
        // is then refused as not a regular file).
        let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        let relative = path.drop { $0 == "/" }
        let slash = relative.lastIndex(of: "/")
        let name = slash.map { relative[relative.index(after: $0)...] } ?? relative
        guard !name.isEmpty, name != "..", name != ".", let contained else { return false }
        let held = folder(
            slash.map { relative[..<$0] } ?? relative[relative.startIndex..<relative.startIndex])
        var descriptor: Int32
        if let held {
            guard held >= 0 else { return false }
            descriptor = openat(held, String(name), flags)
        } else {
            descriptor = (try? contained.open(String(relative), flags: flags)) ?? -1
        }
        if descriptor < 0, held != nil, errno == ENOENT, name.unicodeScalars.contains("\u{FFFD}") {
            // A name that is not UTF-8, as the catalog spells it: the one name on disk that reads
            // so (none, or several alike, is no file).
            descriptor = (try? contained.open(String(relative), flags: flags)) ?? -1
        }
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
