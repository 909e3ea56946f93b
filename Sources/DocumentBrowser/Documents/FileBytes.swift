import FileTree

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole files (documents, thumbnails) into memory.
enum FileBytes {
    /// The bytes of the file at `path`, refusing more than `limit`.
    static func read(_ path: String, limit: Int = 1 << 30) throws(FileTreeError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileTreeError(errno: errno, path: path, operation: "Opening") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileTreeError(errno: errno, path: path, operation: "Reading")
            }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit {
                throw FileTreeError(.invalidArgument, "The file is larger than \(limit) bytes", path: path)
            }
        }
    }
}

/// `read(2)`, named apart from the methods called `read` around it.
@inline(__always)
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
