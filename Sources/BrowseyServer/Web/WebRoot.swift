import AssetFormat
import FileTree
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The web UI's files read from a folder on disk at each request (`browsey serve --web-root
/// DIR`), for working on the UI without rebuilding: the same addresses as the embedded files,
/// and nothing outside the folder. Names are opened through a ``ContainedRoot``, so a `..` or
/// a symlink that leads out fails in the kernel, and dot-names are never served.
struct WebRoot: Sendable {
    /// What reading a name gave.
    enum Lookup: Sendable {
        /// The file.
        case found(ServedAsset)
        /// No such file: the address is a folder's page, as it is with the embedded files.
        case missing
        /// The name leads out of the folder, or cannot be read.
        case refused
    }

    /// The folder, held open.
    let root: ContainedRoot

    /// Opens the folder; it must exist and hold `index.html`.
    init(path: String) throws(FileTreeError) {
        root = try ContainedRoot(path: path)
        let page = try root.open("index.html", flags: O_RDONLY)
        close(page)
    }

    /// The file `name` (`/`-separated, inside the folder).
    func asset(named name: String) -> Lookup {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }) else {
            return .missing
        }
        let descriptor: Int32
        do {
            descriptor = try root.open(name, flags: O_RDONLY | O_CLOEXEC)
        } catch {
            return [.notFound, .notADirectory, .isADirectory].contains(error.code) ? .missing : .refused
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .refused }
        guard status.st_mode & S_IFMT == S_IFREG else { return .missing }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Int(status.st_size))
        while true {
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 64 * 1024) { space in
                read(descriptor, space.baseAddress, space.count)
            }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                return .refused
            }
        }
        return .found(ServedAsset(bytes: buffer, contentType: WebAssetFormat.contentType(ofPath: name).name))
    }
}
