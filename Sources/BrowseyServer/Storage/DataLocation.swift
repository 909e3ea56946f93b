#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a server with accounts keeps what must outlive it (sessions, shares, the audit log) by
/// default: the platform's data folder (`~/Library/Application Support/Browsey/Data`,
/// `$XDG_DATA_HOME/browsey/data`), one folder per served root, never inside the root.
public enum DataLocation {
    /// The data folder for `root`, `nil` when no place outside it can be found.
    public static func defaultFolder(forRoot root: String) -> String? {
        let bases = TrashLocation.userFolders(
            apple: "Library/Application Support/Browsey/Data", xdgVariable: "XDG_DATA_HOME",
            xdgDefault: ".local/share", leaf: "data")
        return TrashLocation.firstOutside(
            root,
            among: bases.map { $0 + "/" + TrashLocation.identifier(ofRoot: SafePath.realPath(root) ?? root) })
    }

    /// Makes `folder` and the folders above it that are missing, readable by the owner only;
    /// `false` when it cannot be made.
    @discardableResult
    public static func make(_ folder: String) -> Bool {
        var path = ""
        for component in folder.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { return false }
        }
        return true
    }
}
