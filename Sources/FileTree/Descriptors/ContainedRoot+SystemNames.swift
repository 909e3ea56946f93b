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
        guard let (bytes, complete) = systemPathPrefix(spelledBy: relative), complete else { return nil }
        return bytes
    }

    /// As ``systemPath(spelledBy:)``, also where it stops: the bytes of the components found
    /// before the first that could not be (a folder that does not open beneath the root, such as
    /// a link that leads out, or a name that no name or several read as), and whether all were.
    /// `nil` when `relative` holds no U+FFFD. No folder outside the root is read.
    public func systemPathPrefix(spelledBy relative: String) -> (bytes: [UInt8], complete: Bool)? {
        let trimmed = relative.drop { $0 == "/" }
        return SystemNames.prefix(spelledBy: String(trimmed)) { folderPath in
            cft_open_beneath(folder.descriptor, realPath, folderPath, O_RDONLY | O_DIRECTORY, 0)
        }
    }
}
