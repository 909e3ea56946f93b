import NIOCore

/// One file of the target's `Assets` folder as the build embedded it.
///
/// The `EmbedAssets` build-tool plugin writes `EmbeddedAsset.all` at build time from every file
/// in `Sources/BrowseyServer/Assets/` (the folder is excluded from the target's sources, so
/// SwiftPM makes no resource bundle, whose accessor would link all of Foundation): the bytes as
/// string literals, the content type, a strong ETag and, for text, a gzip variant. Dropping a
/// file into the folder is all it takes to embed it; ``named(_:)`` finds it by its path there.
struct EmbeddedAsset: Sendable {
    /// Bytes held in a string literal, in one of the two forms the plugin writes.
    enum Literal: Sendable {
        /// The literal's UTF-8 is the bytes (text files).
        case utf8(StaticString)
        /// Each Unicode scalar of the literal, U+0000…U+00FF, is one byte (anything else).
        case latin1(StaticString)

        /// The bytes, copied once into a buffer that every response then shares.
        var buffer: ByteBuffer {
            switch self {
            case .utf8(let text):
                return text.withUTF8Buffer { ByteBuffer(bytes: $0) }
            case .latin1(let text):
                return text.withUTF8Buffer { utf8 in
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(utf8.count)
                    var index = 0
                    while index < utf8.count {
                        let lead = utf8[index]
                        if lead < 0x80 {
                            buffer.writeInteger(lead)
                            index += 1
                        } else {
                            // U+0080…U+00FF take two bytes in UTF-8: 110000xx 10xxxxxx.
                            buffer.writeInteger((lead & 0x03) << 6 | (utf8[index + 1] & 0x3F))
                            index += 2
                        }
                    }
                    return buffer
                }
            }
        }
    }

    /// The path inside the `Assets` folder (`web/index.html`).
    let path: String
    /// The `Content-Type` it is served with.
    let contentType: String
    /// A strong `ETag` of the bytes (hash and length), quotes included.
    let etag: String
    /// The bytes.
    let identity: Literal
    /// The bytes gzipped at build time, when that made them smaller.
    let gzip: Literal?

    /// The embedded file at `path` inside the `Assets` folder, if there is one.
    static func named(_ path: String) -> EmbeddedAsset? {
        all.first { $0.path == path }
    }
}
