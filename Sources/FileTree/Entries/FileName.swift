/// Pure functions on one path component: its extension, its name without it, and whether it is
/// a valid single name.
public enum FileName {
    /// The text after the last `.`, case kept, without the dot; `nil` when there is none, when the
    /// name ends with a dot, and for dot-names such as `.gitignore` (Node's `path.extname` rules).
    public static func pathExtension(of name: some StringProtocol) -> Substring? {
        let utf8 = Substring(name).utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        // A leading run of dots is part of the name: ".gitignore", "..foo".
        if utf8[utf8.startIndex..<dot].allSatisfy({ $0 == UInt8(ascii: ".") }) { return nil }
        let start = utf8.index(after: dot)
        if start == utf8.endIndex { return nil }
        return Substring(name)[start...]
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
}
