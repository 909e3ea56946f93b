#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a server keeps its search index: in the user's cache folder, one file per served root,
/// never inside the served tree.
public enum IndexLocation {
    /// `$XDG_CACHE_HOME/browsey/index/<root>.sqlite` (by default `~/.cache/…`;
    /// `~/Library/Caches/Browsey/Index/…` on Apple platforms), else
    /// `/var/tmp/browsey-<uid>/index/…`; `nil` when each lies inside the root.
    public static func defaultPath(forRoot root: String) -> String? {
        var bases: [String] = []
        let home = environment("HOME")
        #if canImport(Darwin)
        if let home { bases.append(home + "/Library/Caches/Browsey/Index") }
        #else
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") {
            bases.append(cache + "/browsey/index")
        } else if let home {
            bases.append(home + "/.cache/browsey/index")
        }
        #endif
        bases.append("/var/tmp/browsey-\(getuid())/index")
        return path(in: bases, forRoot: root)
    }

    /// The index file for `root` in the folder `folder` (`--index-dir`).
    public static func path(inFolder folder: String, forRoot root: String) -> String? {
        path(in: [folder], forRoot: root)
    }

    private static func path(in bases: [String], forRoot root: String) -> String? {
        let real = SafePath.realPath(root) ?? root
        for base in bases {
            let file = base + "/" + TrashLocation.identifier(ofRoot: real) + ".sqlite"
            if !TrashLocation.lies(file, inside: root) && !TrashLocation.lies(file, inside: real) { return file }
        }
        return nil
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
