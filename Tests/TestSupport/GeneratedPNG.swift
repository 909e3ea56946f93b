/// PNG files written byte by byte (stored deflate blocks, no compression), for tests that
/// need pictures without committing any.
public enum GeneratedPNG {
    /// An opaque RGB PNG of `pixels` (RGB rows).
    public static func rgb(width: Int, height: Int, pixels: [UInt8]) -> [UInt8] {
        encode(width: width, height: height, colorType: 2, rows: rows(pixels, width: width, height: height))
    }

    /// A PNG (8-bit; color type 2 RGB, 6 RGBA, 0 grey, 3 palette) with stored (uncompressed)
    /// deflate blocks, its image data split into IDAT chunks of at most `chunkSize` bytes.
    public static func encode(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8 = 8, palette: [UInt8] = [], rows: [UInt8],
        chunkSize: Int = .max
    )
        -> [UInt8]
    {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [bitDepth, colorType, 0, 0, 0]
        out += chunk("IHDR", header)
        if !palette.isEmpty { out += chunk("PLTE", palette) }
        let data = zlibStored(rows)
        for start in stride(from: 0, to: data.count, by: chunkSize) {
            out += chunk("IDAT", Array(data[start..<min(data.count, start + chunkSize)]))
        }
        out += chunk("IEND", [])
        return out
    }

    /// Just the start of a PNG that claims `width` x `height` (and a token of image data).
    public static func headerOnly(width: UInt32, height: UInt32) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
        out += chunk("IDAT", zlibStored([0, 0, 0, 0]))
        out += chunk("IEND", [])
        return out
    }

    /// RGB pixels as PNG rows (filter byte 0 before each).
    public static func rows(_ rgb: [UInt8], width: Int, height: Int, channels: Int = 3) -> [UInt8] {
        var rows: [UInt8] = []
        for y in 0..<height {
            rows.append(0)
            rows += rgb[(y * width * channels)..<((y + 1) * width * channels)]
        }
        return rows
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out += [
                last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
                UInt8((~count >> 8) & 0xFF),
            ]
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    /// The CRC-32 of PNG chunks (and zip, and gzip).
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// Four bytes, most significant first.
    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// A small seeded generator (SplitMix64): the same sequence on every run.
public struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
