/// FNV-1a over UTF-8: a short hash that is the same on every run and every machine, for names
/// derived from paths (trash folders, resumable upload parts).
enum StableHash {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
