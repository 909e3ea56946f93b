import NIOCore
import Synchronization

/// An asset's bytes as a buffer every response shares, made on first use.
///
/// An embedded file is copied out of the binary's string literal the first time it is asked
/// for, not at start: the web UI's files are 400 KiB, and a server nobody has opened the page
/// of keeps neither the copies nor the literals' pages resident.
final class AssetBytes: Sendable {
    /// The literal until its bytes are first asked for, then the buffer copied out of it.
    private enum State {
        case waiting(EmbeddedAsset.Literal)
        case made(ByteBuffer)
    }

    private let state: Mutex<State>

    /// Bytes to copy out of `literal` when first asked for.
    init(_ literal: EmbeddedAsset.Literal) {
        state = Mutex(.waiting(literal))
    }

    /// Bytes already in a buffer (a file read from disk).
    init(_ buffer: ByteBuffer) {
        state = Mutex(.made(buffer))
    }

    /// The bytes.
    var buffer: ByteBuffer {
        state.withLock { state in
            switch state {
            case .made(let buffer):
                return buffer
            case .waiting(let literal):
                let buffer = literal.buffer
                state = .made(buffer)
                return buffer
            }
        }
    }
}
