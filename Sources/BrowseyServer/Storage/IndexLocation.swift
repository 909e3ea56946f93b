/// Where a server keeps its search index: in the user's cache folder, one file per served root,
/// never inside the served tree.
public enum IndexLocation {
    /// `$XDG_CACHE_HOME/browsey/index/<root>.sqlite` (by default `~/.cache/…`;
    /// `~/Library/Caches/Browsey/Index/…` on Apple platforms), else
    /// `/var/tmp/browsey-<uid>/index/…`; `nil` when each lies inside the root.
    public static func defaultPath(forRoot root: String) -> String? {
        let bases = TrashLocation.userFolders(
            apple: "Library/Caches/Browsey/Index", xdgVariable: "XDG_CACHE_HOME", xdgDefault: ".cache",
            leaf: "index")
        return path(in: bases, forRoot: root)
    }

    /// The index file for `root` in the folder `folder` (`--index-dir`); `nil` inside the root.
    public static func path(inFolder folder: String, forRoot root: String) -> String? {
        path(in: [folder], forRoot: root)
    }

    private static func path(in bases: [String], forRoot root: String) -> String? {
        let name = TrashLocation.identifier(ofRoot: SafePath.realPath(root) ?? root) + ".sqlite"
        return TrashLocation.firstOutside(root, among: bases.map { $0 + "/" + name })
    }
}
