/// A name inside a folder as system calls take it: its bytes, NUL-terminated, whether or not they
/// are valid UTF-8 (``FileEntry/systemName``), and its text for paths in messages. Recursive
/// operations go by it, so that a name from another system's encoding inside a folder is
/// copied or removed like any other instead of stopping the operation half-way.
struct EntryName {
    /// The name as text (an invalid sequence read as U+FFFD).
    let text: String
    /// The name's bytes and a NUL, for `*at` calls.
    let cString: [CChar]

    /// A name given as text.
    init(_ text: String) {
        self.text = text
        cString = Array(text.utf8CString)
    }

    /// An entry's name, by its bytes.
    init(_ entry: FileEntry) {
        text = entry.name
        cString = entry.hasExactName ? Array(entry.name.utf8CString) : Self.cString(entry.systemName)
    }

    /// A name given as its bytes.
    init(systemName: [UInt8]) {
        text = String(decoding: systemName, as: UTF8.self)
        cString = Self.cString(systemName)
    }

    /// Bytes (UTF-8 or not) and a NUL, as C takes a name or a path.
    static func cString(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }
}
