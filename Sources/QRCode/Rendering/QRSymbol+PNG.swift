extension QRSymbol {
    /// The code as a black-on-white PNG, `scale` pixels a module, with a quiet zone of `border`
    /// modules (4 is what the standard asks for).
    public func pngData(scale: Int = 8, border: Int = 4) -> [UInt8] {
        Self.pngData(modules: modules, scale: scale, border: border)
    }

    /// Any square grid of modules (`true` is dark) as a black-on-white PNG: for codes read back
    /// from elsewhere, such as a terminal.
    public static func pngData(modules: [[Bool]], scale: Int = 8, border: Int = 4) -> [UInt8] {
        let size = modules.count
        func isDark(row: Int, column: Int) -> Bool {
            row >= 0 && column >= 0 && row < size && column < modules[row].count && modules[row][column]
        }
        let side = (size + 2 * border) * scale
        var raw: [UInt8] = []
        raw.reserveCapacity((side + 1) * side)
        for y in 0..<side {
            raw.append(0)  // no filter
            let row = y / scale - border
            for x in 0..<side {
                raw.append(isDark(row: row, column: x / scale - border) ? 0 : 255)
            }
        }
        var header: [UInt8] = []
        header += PNGWriter.bigEndian(UInt32(side))
        header += PNGWriter.bigEndian(UInt32(side))
        header += [8, 0, 0, 0, 0]  // 8-bit greyscale
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += PNGWriter.chunk("IHDR", header)
        png += PNGWriter.chunk("IDAT", PNGWriter.zlibStored(raw))
        png += PNGWriter.chunk("IEND", [])
        return png
    }
}

/// The few pieces of PNG a black-and-white image needs: chunks with CRCs, and zlib's stored
/// (uncompressed) blocks with an Adler-32.
enum PNGWriter {
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(kind.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            out.append(final)
            out += [
                UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }
}
