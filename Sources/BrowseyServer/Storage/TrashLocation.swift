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
        var bases: [String] = []
        let home = environment("HOME")
        #if canImport(Darwin)
        if let home { bases.append(home + "/Library/Application Support/Browsey/Trash") }
        #else
        if let data = environment("XDG_DATA_HOME"), data.hasPrefix("/") {
            bases.append(data + "/browsey/trash")
        } else if let home {
            bases.append(home + "/.local/share/browsey/trash")
        }
        #endif
        bases.append("/var/tmp/browsey-\(getuid())/trash")
        let real = SafePath.realPath(root) ?? root
        for base in bases {
            let folder = base + "/" + identifier(ofRoot: real)
            if !lies(folder, inside: root) && !lies(folder, inside: real) { return folder }
        }
        return nil
    }

    /// A readable, stable name for a root: its last component and a hash of its whole path.
    static func identifier(ofRoot root: String) -> String {
        let name = root.split(separator: "/").last.map(String.init) ?? "root"
        let safe = String(name.unicodeScalars.map { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") ? Character($0) : "_" }.prefix(40))
        return safe + "-" + StableHash.hex(root)
    }

    static func lies(_ path: String, inside folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
