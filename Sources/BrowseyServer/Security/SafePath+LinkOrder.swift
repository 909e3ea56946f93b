import FileTree

extension SafePath {
    /// What ``FileTree/DirectoryReader/linkSortsAsFolder`` asks: whether the link at a path
    /// (absolute, as entries name it) leads to a folder when reached again below the root held
    /// open. A link that leads out
    /// sorts with the files, as one to a file does, so that a listing's order tells nothing of
    /// what lies outside. `nil` when links that lead out are followed (`--allow-symlinks`):
    /// their targets are told anyway.
    public var linkSortsAsFolder: (@Sendable (String) -> Bool)? {
        guard !allowsSymlinks, let contained else { return nil }
        let safePath = self
        return { path in
            guard let relative = safePath.relativePath(of: path) else { return false }
            return (try? contained.status(of: relative).type) == .directory
        }
    }
}
