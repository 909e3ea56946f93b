import CThumbnailCodecs
import TestSupport
import Testing

/// The fast path for common PNGs (libdeflate, then the filters undone here), held against
/// libpng's own rows.
@Suite(
    "PNG inflated in one call", .enabled(if: bt_png_inflated_available() != 0, "libdeflate is not installed"))
struct PNGInflatedTests {
    typealias Decoder = (UnsafePointer<UInt8>?, Int, UInt32, UInt64, UnsafeMutablePointer<bt_image>?) -> Int32

    /// The status and the RGB pixels one decoder makes of `file`.
    static func decode(_ file: [UInt8], longest: Int = 40, with decoder: Decoder) -> (Int32, [UInt8]) {
        var image = bt_image()
        let status = file.withUnsafeBufferPointer {
            decoder($0.baseAddress, $0.count, UInt32(longest), 100_000_000, &image)
        }
        defer { bt_free(image.pixels) }
        guard status == Int32(BT_OK), let pixels = image.pixels else { return (status, []) }
        return (status, Array(UnsafeBufferPointer(start: pixels, count: Int(image.width * image.height) * 3)))
    }

    /// `pixels` (rows of `channels` bytes a pixel) filtered as PNG rows, the filter type of row y
    /// being y % 5: none, sub, up, average and Paeth all occur.
    static func filteredRows(_ pixels: [UInt8], width: Int, height: Int, channels: Int) -> [UInt8] {
        let stride = width * channels
        var rows: [UInt8] = []
        for y in 0..<height {
            let type = UInt8(y % 5)
            rows.append(type)
            for i in 0..<stride {
                let value = Int(pixels[y * stride + i])
                let left = i >= channels ? Int(pixels[y * stride + i - channels]) : 0
                let above = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let corner = y > 0 && i >= channels ? Int(pixels[(y - 1) * stride + i - channels]) : 0
                let predicted: Int
                switch type {
                case 1: predicted = left
                case 2: predicted = above
                case 3: predicted = (left + above) / 2
                case 4:
                    let estimate = left + above - corner
                    let (a, b, c) = (abs(estimate - left), abs(estimate - above), abs(estimate - corner))
                    predicted = a <= b && a <= c ? left : b <= c ? above : corner
                default: predicted = 0
                }
                rows.append(UInt8(truncatingIfNeeded: value - predicted))
            }
        }
        return rows
    }

    @Test(
        "grey, grey with alpha, RGB and RGBA come out as libpng's pixels, byte for byte, every filter type",
        arguments: [(UInt8(0), 1), (4, 2), (2, 3), (6, 4)])
    func exact(colorType: UInt8, channels: Int) {
        let (width, height) = (123, 77)
        var random = SeededRandom(seed: 41)
        let pixels = (0..<(width * height * channels)).map { index in
            UInt8(truncatingIfNeeded: index % 251 + Int(random.next() % 7))
        }
        let file = GeneratedPNG.encode(
            width: width, height: height, colorType: colorType,
            rows: Self.filteredRows(pixels, width: width, height: height, channels: channels), chunkSize: 1000
        )
        let fast = Self.decode(file, with: bt_png_inflated_thumbnail)
        let reference = Self.decode(file, with: bt_png_streamed_thumbnail)
        #expect(fast.0 == Int32(BT_OK) && reference.0 == Int32(BT_OK))
        #expect(!fast.1.isEmpty && fast.1 == reference.1)
    }

    @Test(
        "decoded in place, the image data's pieces are joined and put back: same pixels, same bytes after; data split by another chunk is libpng's",
        arguments: [false, true])
    func inPlace(interleavedText: Bool) {
        let (width, height) = (90, 70)
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 13 / 7) }
        var file = GeneratedPNG.encode(
            width: width, height: height, colorType: 2,
            rows: Self.filteredRows(pixels, width: width, height: height, channels: 3), chunkSize: 997)
        if interleavedText {
            // A text chunk between the second and third IDAT: not a valid PNG, so libpng's call.
            var at = 8 + 25
            for _ in 0..<2 {
                let length = file[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
                at += 12 + length
            }
            let typed = Array("tEXtComment\u{0}between".utf8)
            let crc = GeneratedPNG.crc32(typed)
            let length = UInt32(typed.count - 4)
            var chunk = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed
            chunk += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
            file.insert(contentsOf: chunk, at: at)
        }
        let original = file
        var image = bt_image()
        let status = file.withUnsafeMutableBufferPointer {
            bt_png_inflated_thumbnail_in_place($0.baseAddress, $0.count, 40, 100_000_000, &image)
        }
        defer { bt_free(image.pixels) }
        #expect(file == original, "every byte back in place")
        if interleavedText {
            #expect(status == Int32(BT_NOT_HANDLED))
        } else {
            #expect(status == Int32(BT_OK))
            let decoded = image.pixels.map {
                Array(UnsafeBufferPointer(start: $0, count: Int(image.width * image.height) * 3))
            }
            #expect(decoded == Self.decode(original, with: bt_png_streamed_thumbnail).1)
        }
    }

    @Test("palette, 16-bit and interlaced PNGs, and transparency keys, are left to libpng")
    func notTaken() {
        let grey = [UInt8](repeating: 0, count: 8 * 8 + 8)
        let palette = GeneratedPNG.encode(
            width: 8, height: 8, colorType: 3, palette: [0, 0, 0, 255, 255, 255], rows: grey)
        #expect(Self.decode(palette, with: bt_png_inflated_thumbnail).0 == Int32(BT_NOT_HANDLED))
        let deep = GeneratedPNG.encode(
            width: 8, height: 8, colorType: 0, bitDepth: 16, rows: [UInt8](repeating: 0, count: 8 * 17))
        #expect(Self.decode(deep, with: bt_png_inflated_thumbnail).0 == Int32(BT_NOT_HANDLED))
        #expect(Self.decode(deep, with: bt_png_thumbnail).0 == Int32(BT_OK), "libpng still decodes it")
    }

    @Test("damaged PNGs: the fast path decodes or hands over, and the whole decoder answers, never crashes")
    func damaged() {
        let (width, height) = (64, 48)
        let pixels = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let original = GeneratedPNG.encode(
            width: width, height: height, colorType: 2,
            rows: Self.filteredRows(pixels, width: width, height: height, channels: 3), chunkSize: 700)
        var random = SeededRandom(seed: 42)
        var handedOver = 0
        for round in 0..<600 {
            var bytes = original
            if round % 2 == 0 {
                bytes.removeSubrange((8 + Int(random.next() % UInt64(bytes.count - 8)))...)
            } else {
                for _ in 0..<(1 + random.next() % 4) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] ^= UInt8(1 << (random.next() % 8))
                }
            }
            let fast = Self.decode(bytes, with: bt_png_inflated_thumbnail).0
            #expect(fast == Int32(BT_OK) || fast == Int32(BT_NOT_HANDLED))
            if fast == Int32(BT_NOT_HANDLED) { handedOver += 1 }
            let whole = Self.decode(bytes, with: bt_png_thumbnail).0
            #expect(whole == Int32(BT_OK) || whole == Int32(BT_UNDECODABLE))
        }
        #expect(handedOver > 100)
    }
}
