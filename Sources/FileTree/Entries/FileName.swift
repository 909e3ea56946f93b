/// Pure functions on one path component: its extension, its name without it, and whether it is
/// a valid single name.
public enum FileName {
    /// The text after the last `.`, case kept, without the dot; `nil` when there is none, when the
    /// name ends with a dot, and for dot-names such as `.gitignore` (Node's `path.extname` rules).
    public static func pathExtension(of name: some StringProtocol) -> Substring? {
        let whole = Substring(name)
        let utf8 = whole.utf8
        let found =
            utf8.withContiguousStorageIfAvailable { pathExtensionOffset(inUTF8: $0) }
            ?? Array(utf8).withUnsafeBufferPointer { pathExtensionOffset(inUTF8: $0) }
        guard let found else { return nil }
        return whole[utf8.index(utf8.startIndex, offsetBy: found)...]
    }

    /// Where the extension of a name given as UTF-8 bytes starts (after its dot), by the rules of
    /// ``pathExtension(of:)``; `nil` when it has none.
    public static func pathExtensionOffset(inUTF8 name: UnsafeBufferPointer<UInt8>) -> Int? {
        var dot = name.count - 1
        while dot >= 0 && name[dot] != UInt8(ascii: ".") { dot -= 1 }
        guard dot >= 0, dot + 1 < name.count else { return nil }
        // A leading run of dots is part of the name: ".gitignore", "..foo".
        var index = 0
        while index < dot && name[index] == UInt8(ascii: ".") { index += 1 }
        return index == dot ? nil : dot + 1
    }

    /// The name without its extension (`"Report.final"` for `"Report.final.pdf"`).
    public static func displayName(of name: some StringProtocol) -> Substring {
        guard let ext = pathExtension(of: name) else { return Substring(name) }
        let whole = Substring(name)
        return whole[whole.startIndex..<whole.index(before: ext.startIndex)]
    }

    /// Whether `name` is one path component that can be created: not empty, not `.` or `..`, no
    /// `/`, no NUL, at most 255 bytes.
    public static func isValidComponent(_ name: some StringProtocol) -> Bool {
        let utf8 = Substring(name).utf8
        guard !utf8.isEmpty, utf8.count <= 255, name != ".", name != ".." else { return false }
        return !utf8.contains(UInt8(ascii: "/")) && !utf8.contains(0)
    }

    /// Whether a name is hidden by the Unix convention: it starts with a dot.
    public static func isHidden(_ name: some StringProtocol) -> Bool {
        Substring(name).utf8.first == UInt8(ascii: ".")
    }

    /// The last component of an absolute, normalized path (`"/"` for the root): the name an
    /// entry is shown and downloaded under.
    public static func lastComponent(of path: String) -> String { PathText.lastComponent(of: path) }
}
