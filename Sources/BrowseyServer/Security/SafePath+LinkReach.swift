public import FileTree

extension SafePath {
    /// Where a link leads when it is followed again below the root held open.
    public enum LinkReach: Sendable {
        /// To this, inside the root.
        case inside(FileStatus)
        /// Out of the root, directly or through other links, whether or not anything is there.
        case outside
        /// Nowhere inside: its target is missing, a loop, or cannot be read (a listing shows it
        /// as broken).
        case nowhere
    }

    /// Where the link at `relative` (from the root, starting with `/`) leads, reached again
    /// below the root held open rather than by its resolved path, which names what it led to
    /// when it was read; `nil` when links that lead out are followed (`--allow-symlinks`: their
    /// targets are told anyway) or no root is held open. Listings, their order and name search
    /// all tell a link by this, so that none tells more of what lies outside than another.
    public func reach(_ relative: String) -> LinkReach? {
        guard !allowsSymlinks, let contained else { return nil }
        do throws(FileTreeError) {
            return .inside(try contained.status(of: relative))
        } catch  where error.code == .outsideRoot {
            return .outside
        } catch {
            return .nowhere
        }
    }

    /// What ``FileTree/DirectoryReader/linkSortsAsFolder`` asks: whether the link at a path
    /// (absolute, as entries name it) leads to a folder when reached again below the root held
    /// open (see ``reach(_:)``). A link that leads out sorts with the files, as one to a file
    /// does, so that a listing's order tells nothing of what lies outside. `nil` when links that
    /// lead out are followed (`--allow-symlinks`): their targets are told anyway.
    public var linkSortsAsFolder: (@Sendable (String) -> Bool)? {
        guard !allowsSymlinks, contained != nil else { return nil }
        let safePath = self
        return { path in
            guard let relative = safePath.relativePath(of: path),
                case .inside(let status) = safePath.reach(relative)
            else { return false }
            return status.type == .directory
        }
    }
}
