#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a server keeps the items it deletes: in the user's data folder, in a folder of its own
/// for each served root, and never inside the served tree (a trash that could be browsed, or
/// deleted into itself, would be no trash).
public enum TrashLocation {
    /// The trash folder for `root`: `$XDG_DATA_HOME/browsey/trash/<root>` (by default
    /// `~/.local/share/…`; `~/Library/Application Support/Browsey/Trash/<root>` on Apple
    /// platforms), else `/var/tmp/browsey-<uid>/trash/<root>`; `nil` when each of them lies
    /// inside the served root (serving `/`, say), where deletes can only be permanent.
    public static func defaultFolder(forRoot root: String) -> String? {
        let bases = userFolders(
            apple: "Library/Application Support/Browsey/Trash", xdgVariable: "XDG_DATA_HOME",
            xdgDefault: ".local/share", leaf: "trash")
        return firstOutside(
            root, among: bases.map { $0 + "/" + identifier(ofRoot: SafePath.realPath(root) ?? root) })
    }

    /// Where a per-user Browsey folder goes, best first: the platform's place (`~/Library/…`;
    /// `$XDG_…` or its default under the home folder), then `/var/tmp/browsey-<uid>/<leaf>`.
    static func userFolders(apple: String, xdgVariable: String, xdgDefault: String, leaf: String) -> [String]
    {
        var bases: [String] = []
        let home = environment("HOME")
        #if canImport(Darwin)
            if let home { bases.append(home + "/" + apple) }
        #else
            if let base = environment(xdgVariable), base.hasPrefix("/") {
                bases.append(base + "/browsey/" + leaf)
            } else if let home {
                bases.append(home + "/" + xdgDefault + "/browsey/" + leaf)
            }
        #endif
        bases.append("/var/tmp/browsey-\(getuid())/" + leaf)
        return bases
    }

    /// The first of `paths` that lies outside the served root (as given and resolved).
    static func firstOutside(_ root: String, among paths: [String]) -> String? {
        let real = SafePath.realPath(root) ?? root
        return paths.first { !lies($0, inside: root) && !lies($0, inside: real) }
    }

    /// A readable, stable name for a root: its last component and a hash of its whole path.
    static func identifier(ofRoot root: String) -> String {
        let name = root.split(separator: "/").last.map(String.init) ?? "root"
        let safe = String(
            name.unicodeScalars.map {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
                    ? Character($0) : "_"
            }.prefix(40))
        return safe + "-" + StableHash.hex(root)
    }

    static func lies(_ path: String, inside folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
