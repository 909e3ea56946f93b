import CTestSupport
import CThumbnailCodecs
import TestSupport
import Testing

/// The fast path for baseline JPEGs wanted at an eighth or less, held against libjpeg-turbo's own
/// decoder at that scale.
@Suite("JPEG at an eighth")
struct JPEGEighthTests {
    /// A layout of `cts_jpeg_encode`.
    static func layout(
        grey: Bool = false, across: Int32 = 2, down: Int32 = 2, restartRows: Int32 = 0,
        progressive: Bool = false
    ) -> cts_jpeg_layout {
        cts_jpeg_layout(
            quality: 90, grey: grey ? 1 : 0, luma_across: across, luma_down: down, restart_rows: restartRows,
            progressive: progressive ? 1 : 0)
    }

    static func encode(_ rgb: [UInt8], width: Int, height: Int, _ layout: cts_jpeg_layout) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = rgb.withUnsafeBufferPointer {
            cts_jpeg_encode($0.baseAddress, UInt32(width), UInt32(height), layout, &output, &size)
        }
        precondition(status == 0 && output != nil)
        defer { bt_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The status and the pixels (width, height, RGB) of one decoder.
    typealias Decoded = (status: Int32, width: Int, height: Int, pixels: [UInt8])

    static func decode(
        _ file: [UInt8], longest: Int,
        with decoder: (UnsafePointer<UInt8>?, Int, UInt32, UInt64, UnsafeMutablePointer<bt_image>?) -> Int32
    ) -> Decoded {
        var image = bt_image()
        let status = file.withUnsafeBufferPointer {
            decoder($0.baseAddress, $0.count, UInt32(longest), 100_000_000, &image)
        }
        defer { bt_free(image.pixels) }
        guard status == Int32(BT_OK), let pixels = image.pixels else { return (status, 0, 0, []) }
        let count = Int(image.width) * Int(image.height) * 3
        return (
            status, Int(image.width), Int(image.height),
            Array(UnsafeBufferPointer(start: pixels, count: count))
        )
    }

    static func eighth(_ file: [UInt8], longest: Int) -> Decoded {
        decode(file, longest: longest, with: bt_jpeg_eighth_thumbnail)
    }

    static func libjpeg(_ file: [UInt8], longest: Int) -> Decoded {
        decode(file, longest: longest, with: bt_jpeg_scaled_thumbnail)
    }

    @Test(
        "grey and full-resolution colour come out as libjpeg-turbo's own pixels, byte for byte, restart markers or not",
        arguments: [
            (grey: true, restartRows: Int32(0)), (grey: true, restartRows: 1), (grey: false, restartRows: 0),
            (grey: false, restartRows: 2),
        ])
    func exact(grey: Bool, restartRows: Int32) {
        let (width, height) = (1001, 667)
        let rgb = TestImages.photoLike(width: width, height: height, seed: 31)
        let file = Self.encode(
            rgb, width: width, height: height,
            Self.layout(grey: grey, across: 1, down: 1, restartRows: restartRows))
        for longest in [126, 100, 64] {
            let fast = Self.eighth(file, longest: longest)
            let reference = Self.libjpeg(file, longest: longest)
            #expect(fast.status == Int32(BT_OK) && reference.status == Int32(BT_OK))
            #expect(fast.width == reference.width && fast.height == reference.height && fast.width == longest)
            #expect(fast.pixels == reference.pixels, "longest \(longest)")
        }
    }

    @Test(
        "chroma at half the rate comes out within a level of libjpeg-turbo on average (4:2:0, 4:2:2, 4:4:0)",
        arguments: [(Int32(2), Int32(2)), (2, 1), (1, 2)])
    func subsampled(across: Int32, down: Int32) {
        let (width, height) = (1600, 1200)
        let rgb = TestImages.photoLike(width: width, height: height, seed: 32)
        let file = Self.encode(
            rgb, width: width, height: height, Self.layout(across: across, down: down, restartRows: 3))
        let fast = Self.eighth(file, longest: 200)
        let reference = Self.libjpeg(file, longest: 200)
        #expect(fast.status == Int32(BT_OK) && fast.width == 200 && fast.height == 150)
        #expect(fast.width == reference.width && fast.height == reference.height)
        let differences = zip(fast.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(max(differences.count, 1))
        #expect(mean < 1.0, "mean difference \(mean)")
        // libjpeg-turbo makes such chroma from the low frequencies of its blocks; the fast path
        // interpolates the blocks' means, which softens a sharp colour edge such as the disc's.
        #expect((differences.max() ?? 0) <= 64, "largest difference, at the disc's edge")
    }

    @Test("progressive files and sizes above an eighth are left to libjpeg-turbo, which still decodes them")
    func notTaken() {
        let rgb = TestImages.photoLike(width: 800, height: 600, seed: 33)
        let progressive = Self.encode(rgb, width: 800, height: 600, Self.layout(progressive: true))
        #expect(Self.eighth(progressive, longest: 100).status == Int32(BT_NOT_HANDLED))
        let baseline = Self.encode(rgb, width: 800, height: 600, Self.layout())
        #expect(Self.eighth(baseline, longest: 101).status == Int32(BT_NOT_HANDLED), "needs a quarter")
        #expect(Self.eighth(baseline, longest: 100).status == Int32(BT_OK))
        for file in [progressive, baseline] {
            let whole = Self.decode(file, longest: 101, with: bt_jpeg_thumbnail)
            #expect(whole.status == Int32(BT_OK) && whole.width == 101)
        }
    }

    @Test("damaged baseline JPEGs with restart markers: the fast path decodes or hands over, never crashes")
    func damaged() {
        let rgb = TestImages.photoLike(width: 320, height: 240, seed: 34)
        let originals = [
            Self.encode(rgb, width: 320, height: 240, Self.layout(restartRows: 1)),
            Self.encode(rgb, width: 320, height: 240, Self.layout(grey: true)),
        ]
        var random = SeededRandom(seed: 35)
        var outcomes: [Int32: Int] = [:]
        for round in 0..<1_000 {
            var bytes = originals[round % 2]
            switch round % 3 {
            case 0: bytes.removeSubrange((2 + Int(random.next() % UInt64(bytes.count - 2)))...)
            case 1:
                for _ in 0..<(1 + random.next() % 8) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] ^= UInt8(1 << (random.next() % 8))
                }
            default:
                // Damage among the headers: the tables and the frame.
                let at = Int(random.next() % UInt64(min(bytes.count, 700)))
                bytes[at] = UInt8(truncatingIfNeeded: random.next())
            }
            let fast = Self.eighth(bytes, longest: 40)
            #expect(fast.status == Int32(BT_OK) || fast.status == Int32(BT_NOT_HANDLED))
            if fast.status == Int32(BT_OK) { #expect(fast.pixels.count == fast.width * fast.height * 3) }
            outcomes[fast.status, default: 0] += 1
            let whole = Self.decode(bytes, longest: 40, with: bt_jpeg_thumbnail)
            #expect(whole.status == Int32(BT_OK) || whole.status == Int32(BT_UNDECODABLE))
        }
        #expect(outcomes[Int32(BT_OK), default: 0] > 100 && outcomes[Int32(BT_NOT_HANDLED), default: 0] > 100)
    }
}
