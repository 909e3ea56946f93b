import Crypto

/// SHA-256 of a text, as bytes.
enum SHA256Digest {
    static func of(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }
}
