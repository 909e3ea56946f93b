/// Windows bitmaps, parsed here: 1, 4 and 8 bits with a palette, 24 and 32 bits, uncompressed,
/// bottom-up or top-down. Every offset is checked against the file.
enum BMPDecoder {
    struct Header {
        var width: Int
        var height: Int
        var topDown: Bool
        var bitsPerPixel: Int
        var compression: Int
        var pixelOffset: Int
        var paletteOffset: Int
        var paletteEntrySize: Int
        var paletteCount: Int
    }

    /// The header, or `nil` when the bytes are not a bitmap this decoder reads.
    static func header(_ bytes: [UInt8]) -> Header? {
        guard bytes.count >= 26, bytes[0] == 0x42, bytes[1] == 0x4D else { return nil }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let pixelOffset = u32(10)
        let dibSize = u32(14)
        var header: Header
        if dibSize == 12 {
            header = Header(
                width: u16(18), height: u16(20), topDown: false, bitsPerPixel: u16(24), compression: 0,
                pixelOffset: pixelOffset, paletteOffset: 26, paletteEntrySize: 3, paletteCount: 0)
        } else if dibSize >= 40, bytes.count >= 54 {
            let rawHeight = Int32(bitPattern: UInt32(u32(22)))
            let rawWidth = Int32(bitPattern: UInt32(u32(18)))
            guard rawHeight != Int32.min, rawWidth > 0 else { return nil }
            header = Header(
                width: Int(rawWidth), height: Int(abs(rawHeight)), topDown: rawHeight < 0,
                bitsPerPixel: u16(28),
                compression: u32(30), pixelOffset: pixelOffset, paletteOffset: 14 + dibSize,
                paletteEntrySize: 4,
                paletteCount: u32(46))
        } else {
            return nil
        }
        guard header.width > 0, header.height > 0, [1, 4, 8, 24, 32].contains(header.bitsPerPixel) else {
            return nil
        }
        if header.bitsPerPixel <= 8,
            header.paletteCount == 0 || header.paletteCount > 1 << header.bitsPerPixel
        {
            header.paletteCount = 1 << header.bitsPerPixel
        }
        return header
    }

    /// The bitmap brought down to at most `longest`.
    static func thumbnail(
        _ bytes: [UInt8], longest: Int, maximumPixels: Int
    ) throws(ThumbnailError) -> PixelImage {
        let failure = ThumbnailError(.notThumbnailable, "The bitmap cannot be decoded")
        guard let header = header(bytes) else { throw failure }
        guard header.width * header.height <= maximumPixels else {
            throw ThumbnailError(.imageTooLarge, "The bitmap has more pixels than allowed")
        }
        let uncompressed = header.compression == 0 || (header.compression == 3 && header.bitsPerPixel == 32)
        guard uncompressed else { throw failure }
        let stride = (header.width * header.bitsPerPixel + 31) / 32 * 4
        guard header.pixelOffset >= 0, header.pixelOffset <= bytes.count,
            (bytes.count - header.pixelOffset) / stride >= header.height
        else { throw failure }
        var palette: [(UInt8, UInt8, UInt8)] = []
        if header.bitsPerPixel <= 8 {
            let end = header.paletteOffset + header.paletteCount * header.paletteEntrySize
            guard header.paletteOffset >= 0, end <= bytes.count else { throw failure }
            for index in 0..<header.paletteCount {
                let at = header.paletteOffset + index * header.paletteEntrySize
                palette.append((bytes[at + 2], bytes[at + 1], bytes[at]))
            }
        }
        let resampler = try RowResampler(
            sourceWidth: header.width, sourceHeight: header.height, longest: longest)
        var row = [UInt8](repeating: 0, count: header.width * 3)
        for y in 0..<header.height {
            let stored = header.topDown ? y : header.height - 1 - y
            let start = header.pixelOffset + stored * stride
            for x in 0..<header.width {
                let rgb: (UInt8, UInt8, UInt8)
                switch header.bitsPerPixel {
                case 24, 32:
                    let at = start + x * header.bitsPerPixel / 8
                    rgb = (bytes[at + 2], bytes[at + 1], bytes[at])
                default:
                    let bit = x * header.bitsPerPixel
                    let byte = bytes[start + bit / 8]
                    let shift = 8 - header.bitsPerPixel - bit % 8
                    let index = Int(byte >> UInt8(shift)) & ((1 << header.bitsPerPixel) - 1)
                    rgb = index < palette.count ? palette[index] : (0, 0, 0)
                }
                row[x * 3] = rgb.0
                row[x * 3 + 1] = rgb.1
                row[x * 3 + 2] = rgb.2
            }
            row.withUnsafeBufferPointer { resampler.add($0, channels: 3) }
        }
        return try resampler.finish()
    }
}
