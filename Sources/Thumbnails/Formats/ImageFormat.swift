/// The picture formats the module knows by their first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, gif, webp, bmp, tiff, heif, avif

    /// The format the bytes start with, or `nil`.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(32))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("BM".utf8)) { return .bmp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = head.count >= 12 ? String(decoding: head[8..<12], as: UTF8.self) : ""
            if brand == "avif" || brand == "avis" { return .avif }
            if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) {
                return .heif
            }
        }
        return nil
    }

    /// The format a name's extension (lower-cased, without the dot) usually holds.
    public static func forExtension(_ ext: String) -> ImageFormat? {
        switch ext {
        case "jpg", "jpeg", "jpe", "jfif": .jpeg
        case "png", "apng": .png
        case "gif": .gif
        case "webp": .webp
        case "bmp", "dib": .bmp
        case "tif", "tiff": .tiff
        case "heic", "heif", "hif": .heif
        case "avif": .avif
        default: nil
        }
    }
}
