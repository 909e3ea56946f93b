/// The extensions a listing marks with `"thumbnail": true`: the types this server can make a
/// thumbnail of (pictures it decodes; videos and PDFs when ffmpeg and pdftoppm were found).
/// Looked up from a name's bytes without making a string: listings are a hot path.
struct ThumbnailExtensions: Sendable {
    /// Each extension's ASCII letters, lower-cased, packed into an integer. An array: a score of
    /// integers is searched faster than a set hashes one, for every file of every listing.
    private let packed: [UInt64]

    /// None: listings mark nothing.
    static let none = ThumbnailExtensions([])

    /// The given lower-cased extensions (ASCII, at most eight letters).
    init(_ extensions: Set<String>) {
        packed = Set(extensions.compactMap { Self.pack(Array($0.utf8)[...]) }).sorted()
    }

    /// Whether a name's extension (its UTF-8 bytes after the dot) is one of them.
    func contains(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !packed.isEmpty, let key = Self.pack(bytes[...]) else { return false }
        return packed.contains(key)
    }

    /// Whether an extension (any case, without the dot) is one of them.
    func contains(_ ext: String?) -> Bool {
        guard !packed.isEmpty, let ext, let key = Self.pack(Array(ext.utf8)[...]) else { return false }
        return packed.contains(key)
    }

    private static func pack<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 8 else { return nil }
        var key: UInt64 = 0
        for byte in bytes {
            guard byte < 0x80 else { return nil }
            let lower = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            key = key << 8 | UInt64(lower)
        }
        return key
    }
}
