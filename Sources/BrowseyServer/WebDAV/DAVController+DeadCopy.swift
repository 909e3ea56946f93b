import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DAVController {
    /// A COPY keeps the dead properties of what it copies (the item itself; members of a
    /// copied folder keep theirs only where the file system's copy carries attributes).
    static func copyDeadProperties(
        _ name: String, in source: OpenFolder, to newName: String, in destination: OpenFolder
    ) {
        let from = openat(source.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard from >= 0 else { return }
        defer { close(from) }
        let to = openat(destination.descriptor, newName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard to >= 0 else { return }
        defer { close(to) }
        DAVDeadProperties.copy(from: from, to: to)
    }
}
