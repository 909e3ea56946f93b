import BrowseyClient
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The pieces of an open file, closed once read to the end.
struct FilePieces: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let descriptor: Int32
    let offset: Int64
    let end: Int64

    /// Opens `path` to send `length` bytes from `offset`.
    init(path: String, offset: Int64, length: Int64) throws(BrowseyClientError) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BrowseyClientError(.localFile, "cannot read \(path)") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw BrowseyClientError(.localFile, "cannot read \(path)")
        }
        self.offset = offset
        end = offset + length
        guard end <= Int64(status.st_size) else {
            close(descriptor)
            throw BrowseyClientError(.localFile, "\(path) is shorter than expected")
        }
    }

    func makeAsyncIterator() -> Iterator { Iterator(descriptor: descriptor, position: offset, end: end) }

    struct Iterator: AsyncIteratorProtocol {
        let descriptor: Int32
        var position: Int64
        let end: Int64

        mutating func next() async throws -> ByteBuffer? {
            guard position < end else {
                close(descriptor)
                return nil
            }
            let size = Int(Swift.min(256 << 10, end - position))
            var buffer = ByteBuffer()
            let read = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { bytes in
                let count = pread(descriptor, bytes.baseAddress, size, off_t(position))
                guard count > 0 else {
                    throw BrowseyClientError(.localFile, "the file shrank while it was sent")
                }
                return count
            }
            position += Int64(read)
            return buffer
        }
    }
}
