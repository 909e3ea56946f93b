#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole reads of small open files: a text file for a preview, a picture for a decoder, a
/// cached thumbnail.
public enum FileContents {
    /// Up to `limit` bytes of the open file `descriptor` from its start (fewer when it is
    /// shorter), read with `pread` so the descriptor's offset is left alone; `nil` when it
    /// cannot be read.
    public static func read(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        guard limit > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: limit)
        var filled = 0
        while filled < limit {
            let count = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + filled, limit - filled, off_t(filled))
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return nil }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }
}
