import NIOCore
import Synchronization

/// An asset's bytes as a buffer every response shares, made on first use.
///
/// An embedded file is copied out of the binary's string literal the first time it is asked
/// for, not at start: the web UI's files are 400 KiB, and a server nobody has opened the page
/// of keeps neither the copies nor the literals' pages resident.
final class AssetBytes: Sendable {
    private let literal: EmbeddedAsset.Literal?
    private let made: Mutex<ByteBuffer?>

    /// Bytes to copy out of `literal` when first asked for.
    init(_ literal: EmbeddedAsset.Literal) {
        self.literal = literal
        made = Mutex(nil)
    }

    /// Bytes already in a buffer (a file read from disk).
    init(_ buffer: ByteBuffer) {
        literal = nil
        made = Mutex(buffer)
    }

    /// The bytes.
    var buffer: ByteBuffer {
        made.withLock { made in
            if let made { return made }
            let buffer = literal?.buffer ?? ByteBuffer()
            made = buffer
            return buffer
        }
    }
}
