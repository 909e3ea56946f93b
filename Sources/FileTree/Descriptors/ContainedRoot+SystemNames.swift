internal import CFileTreeSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ContainedRoot {
    /// The bytes of the path below the root that `relative` spells with U+FFFD where names on
    /// disk are not valid UTF-8, as listings show them: each component holding U+FFFD stands for
    /// the one name in its folder that reads the same. `nil` when `relative` holds no U+FFFD,
    /// or a component matches no name or several (two names can read alike), so that nothing is
    /// guessed. Every folder on the way is opened beneath the root.
    public func systemPath(spelledBy relative: String) -> [UInt8]? {
        let trimmed = relative.drop { $0 == "/" }
        return SystemNames.path(spelledBy: String(trimmed)) { folderPath in
            cft_open_beneath(folder.descriptor, realPath, folderPath, O_RDONLY | O_DIRECTORY, 0)
        }
    }
}
