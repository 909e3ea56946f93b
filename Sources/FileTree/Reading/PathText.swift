/// Path arithmetic on text, without asking the file system.
enum PathText {
    /// Joins a folder and a name with exactly one `/`.
    static func join(_ folder: String, _ name: some StringProtocol) -> String {
        if folder.isEmpty { return String(name) }
        return folder.utf8.last == UInt8(ascii: "/") ? folder + name : folder + "/" + name
    }

    /// Resolves `.`, `..` and repeated slashes of an absolute path by text; `..` at the top
    /// stays at `/`. A relative path is first made absolute against `base`.
    static func normalize(_ path: String, base: String = "/") -> String {
        let absolute = path.hasPrefix("/") ? path : join(base, path)
        var parts: [Substring] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(component)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder part of an absolute, normalized path (`"/"` for a top-level item).
    static func parent(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")), slash != path.utf8.startIndex else {
            return "/"
        }
        return String(path[..<slash])
    }

    /// The last component of an absolute, normalized path (`"/"` for the root).
    static func lastComponent(of path: String) -> String {
        guard path != "/", let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }
}
