import BrowseyServer
import ErrorModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading and writing the accounts file as bytes, with the system's calls (the command line
/// links no Foundation).
enum AccountsFileText {
    /// Why a file could not be read or written.
    struct Failure: Error {
        let message: String
    }

    /// The whole file (at most 16 MiB).
    static func contents(of path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(message: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += chunk[..<count]
            if bytes.count > 16 << 20 { throw Failure(message: "larger than 16 MiB") }
        }
        return bytes
    }

    /// Replaces the file with `bytes` atomically (a temporary file beside it, renamed over it),
    /// readable by its owner only.
    static func replace(_ path: String, with bytes: [UInt8]) throws(Failure) {
        let temporary = path + ".browsey-new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(message: String(cString: strerror(errno))) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                let message = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw Failure(message: message)
            }
            written += count
        }
        fsync(descriptor)
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(message: message)
        }
    }
}
