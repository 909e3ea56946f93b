import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SafePath {
    /// Where `target` really is, relative to the root, with every link resolved: the item
    /// itself when it exists, otherwise the folder it would be made in followed by its name;
    /// `nil` when that lies outside the root (only reachable with `--allow-symlinks`).
    func realRelative(of target: SafePath.Resolved) -> String? {
        if target.relative == "/" { return "/" }
        if let real = Self.realPath(target.absolute) { return realRelativeInside(real) }
        let name = FileName.lastComponent(of: target.absolute)
        let parent = String(target.absolute.dropLast(name.count + 1))
        guard let folder = Self.realPath(parent.isEmpty ? "/" : parent),
            let relative = realRelativeInside(folder)
        else { return nil }
        return relative == "/" ? "/" + name : relative + "/" + name
    }

    private func realRelativeInside(_ real: String) -> String? {
        if real == realRoot { return "/" }
        if realRoot == "/" { return real }
        guard real.hasPrefix(realRoot + "/") else { return nil }
        return String(real.dropFirst(realRoot.count))
    }
}
