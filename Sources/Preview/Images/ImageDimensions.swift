#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads an image's pixel size from the first bytes of its file, without decoding it: PNG, JPEG,
/// GIF, WebP (lossy, lossless, extended), BMP, and SVG (`width`/`height` or `viewBox`).
public enum ImageDimensions {
    /// How many bytes of the file to hand to ``read(_:)``: enough for every format but JPEGs with
    /// large metadata, which are read in full up to this.
    public static let headerLength = 256 * 1024

    /// The width and height, or `nil` when the bytes are not an image this reader knows.
    public static func read(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : 0 }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
        func le24(_ i: Int) -> Int { i + 2 < bytes.count ? le16(i) | Int(bytes[i + 2]) << 16 : 0 }
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), bytes.count >= 24 {
            return (be32(16), be32(20))
        }
        if starts(Array("GIF8".utf8)), bytes.count >= 10 { return (le16(6), le16(8)) }
        if starts(Array("BM".utf8)), bytes.count >= 26 {
            let height = Int(Int32(truncatingIfNeeded: UInt32(le32(22))))
            return (Int(Int32(truncatingIfNeeded: UInt32(le32(18)))), abs(height))
        }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8), bytes.count >= 30 {
            if starts(Array("VP8 ".utf8), at: 12) { return (le16(26) & 0x3FFF, le16(28) & 0x3FFF) }
            if starts(Array("VP8L".utf8), at: 12), bytes.count >= 25 {
                let bits = le32(21)
                return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
            }
            if starts(Array("VP8X".utf8), at: 12) { return (le24(24) + 1, le24(27) + 1) }
            return nil
        }
        if starts([0xFF, 0xD8]) {
            var offset = 2
            while offset + 9 < bytes.count {
                guard bytes[offset] == 0xFF else { return nil }
                let marker = bytes[offset + 1]
                if marker == 0xFF { offset += 1; continue }
                if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                    return (be16(offset + 7), be16(offset + 5))
                }
                offset += 2 + be16(offset + 2)
            }
            return nil
        }
        return svg(bytes)
    }

    /// SVG: the root element's `width` and `height` in pixels, else its `viewBox`.
    static func svg(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let text = String(decoding: bytes.prefix(8192), as: UTF8.self)
        guard let start = text.firstRange(of: "<svg") else { return nil }
        guard let end = text[start.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = String(text[start.upperBound..<end])
        func attribute(_ name: String) -> String? {
            for quote in ["\"", "'"] {
                if let range = tag.firstRange(of: " \(name)=\(quote)")
                    ?? tag.firstRange(of: "\n\(name)=\(quote)")
                {
                    let rest = tag[range.upperBound...]
                    if let close = rest.firstIndex(of: Character(quote)) { return String(rest[..<close]) }
                }
            }
            return nil
        }
        func pixels(_ value: String?) -> Int? {
            guard let value else { return nil }
            let number = value.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, value.dropFirst(number.count).allSatisfy({ "px ".contains($0) }) else {
                return nil
            }
            return Double(number).map { Int($0.rounded()) }
        }
        if let width = pixels(attribute("width")), let height = pixels(attribute("height")) {
            return (width, height)
        }
        if let box = attribute("viewBox") {
            let numbers = box.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
            if numbers.count == 4 { return (Int(numbers[2].rounded()), Int(numbers[3].rounded())) }
        }
        return nil
    }
}
