internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths whose names are not valid UTF-8, as text spells them: a name read from the system as a
/// `String` has each invalid sequence as U+FFFD (``FileEntry/name``), and such a path does not
/// open as it is. These find the bytes again.
///
/// ```swift
/// if lstat(path, &status) != 0, errno == ENOENT, let bytes = SystemNames.cPath(spelling: path) {
///     lstat(bytes, &status)  // the one name each U+FFFD component stands for
/// }
/// ```
public enum SystemNames {
    /// The bytes of the path that `text` spells with U+FFFD where names on disk are not valid
    /// UTF-8: each component holding U+FFFD stands for the one name in its folder that reads the
    /// same. `nil` when `text` holds no U+FFFD, or a component matches no name or several (two
    /// names can read alike: `x\u{E8}` and `x\u{E9}` in Latin-1 both read `x\u{FFFD}`), so that
    /// nothing is guessed.
    ///
    /// - Parameter openFolder: opens a folder, given its path so far as a C string (`.` for
    ///   the start of a relative path), for reading its names; a descriptor or -1.
    static func path(
        spelledBy text: String, openFolder: (UnsafePointer<CChar>) -> Int32
    ) -> [UInt8]? {
        guard let (bytes, complete) = prefix(spelledBy: text, openFolder: openFolder), complete else {
            return nil
        }
        return bytes
    }

    /// As ``path(spelledBy:openFolder:)``, also where it stops: the bytes of the components found
    /// before the first that could not be (its folder would not open, or no name or several
    /// read as it), and whether every component was found. `nil` when `text` holds no U+FFFD.
    static func prefix(
        spelledBy text: String, openFolder: (UnsafePointer<CChar>) -> Int32
    ) -> (bytes: [UInt8], complete: Bool)? {
        guard text.unicodeScalars.contains("\u{FFFD}") else { return nil }
        var path: [UInt8] = text.utf8.first == UInt8(ascii: "/") ? [UInt8(ascii: "/")] : []
        for component in text.split(separator: "/") {
            let found = path
            if !path.isEmpty && path.last != UInt8(ascii: "/") { path.append(UInt8(ascii: "/")) }
            guard component.unicodeScalars.contains("\u{FFFD}") else {
                path += component.utf8
                continue
            }
            let folder = EntryName.cString(path.isEmpty ? Array(".".utf8) : path)
            let descriptor = openFolder(folder)
            guard descriptor >= 0, let bytes = onlyName(readingAs: component, in: descriptor) else {
                return (found, false)
            }
            path += bytes
        }
        return (path, true)
    }

    /// The bytes of `path` (absolute, or from the working folder) as a C string, where `path`
    /// spells with U+FFFD names that are not valid UTF-8: each component holding U+FFFD stands
    /// for the one name in its folder that reads the same. `nil` when `path` holds no U+FFFD, or
    /// a component matches no name or several. `errno` is left as it was. Ask only after the
    /// path as written failed with `ENOENT`: a name may hold U+FFFD itself.
    public static func cPath(spelling path: String) -> [CChar]? {
        bytes(spelling: path).map(EntryName.cString)
    }

    /// As ``cPath(spelling:)``, the bytes without the C string's closing NUL.
    public static func bytes(spelling path: String) -> [UInt8]? {
        guard path.unicodeScalars.contains("\u{FFFD}") else { return nil }
        let saved = errno
        defer { errno = saved }
        return Self.path(spelledBy: path) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    }

    /// The bytes of the one name in the open folder `descriptor` (closed here) that reads as
    /// `text`; `nil` for none or several.
    static func onlyName(readingAs text: Substring, in descriptor: Int32) -> [UInt8]? {
        // Only a name with a byte from 0x80 can read as `text`, which holds U+FFFD: ASCII reads
        // as itself. A large folder's such names are remembered (``FolderNamesMemo``), so a
        // request for a missing name so spelled does not read 100,000 names each time.
        guard let candidates = FolderNamesMemo.shared.namesNotASCII(in: descriptor) else { return nil }
        var text = text
        return text.withUTF8 { wanted -> [UInt8]? in
            // A name reads as `text` only if it starts with the bytes `text` has before its first
            // U+FFFD: decoding copies valid UTF-8 as it is, and that part holds no U+FFFD for a
            // replacement to stand for.
            let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
            var lead = 0
            while lead + 3 <= wanted.count && !wanted[lead..<(lead + 3)].elementsEqual(replacement) {
                lead += 1
            }
            var found: [UInt8]?
            for bytes in candidates
            where bytes.count >= lead && bytes.prefix(lead).elementsEqual(wanted.prefix(lead)) {
                // Byte for byte: `==` on strings would take é and e + ◌́ as the same name.
                guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(wanted) else { continue }
                if found != nil { return nil }
                found = bytes
            }
            return found
        }
    }
}
