import CThumbnailCodecs
import TestSupport
@testable import Thumbnails

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Pictures made by the tests themselves: RGB pixels, and encoders for each format (JPEG by
/// libjpeg through the module's C target, the rest written here byte by byte).
enum TestImages {
    /// RGB rows of `width` x `height`, each pixel from `color(x, y)`.
    static func pixels(width: Int, height: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                let at = (y * width + x) * 3
                (bytes[at], bytes[at + 1], bytes[at + 2]) = (r, g, b)
            }
        }
        return bytes
    }

    /// Four quadrants, upright: red top left, green top right, blue bottom left, white bottom right.
    static func quadrant(x: Int, y: Int, width: Int, height: Int) -> (UInt8, UInt8, UInt8) {
        switch (x < width / 2, y < height / 2) {
        case (true, true): (255, 0, 0)
        case (false, true): (0, 255, 0)
        case (true, false): (0, 0, 255)
        case (false, false): (255, 255, 255)
        }
    }

    /// Something that compresses like a photo: gradients, soft shapes and a little noise.
    static func photoLike(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        let cx = Double(random.next() % UInt64(width))
        let cy = Double(random.next() % UInt64(height))
        let radius = Double(min(width, height)) / 3
        return pixels(width: width, height: height) { x, y in
            let dx = Double(x) - cx
            let dy = Double(y) - cy
            let inside = dx * dx + dy * dy < radius * radius
            let noise = Int(random.next() % 9) - 4
            let sky = 90 + 120 * y / height
            func clamp(_ value: Int) -> UInt8 { UInt8(max(0, min(255, value + noise))) }
            return inside
                ? (clamp(200 - x * 60 / width), clamp(150), clamp(60 + y * 40 / height))
                : (clamp(sky / 2 + x * 30 / width), clamp(sky), clamp(sky + 30))
        }
    }

    // MARK: JPEG

    /// A JPEG of the pixels, by libjpeg (quality 90), with no metadata.
    static func jpeg(_ rgb: [UInt8], width: Int, height: Int, quality: Int32 = 90) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = rgb.withUnsafeBufferPointer {
            bt_jpeg_encode($0.baseAddress, UInt32(width), UInt32(height), quality, &output, &size)
        }
        precondition(status == 0 && output != nil)
        defer { bt_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// The JPEG with an EXIF APP1 segment right after its start marker: orientation, make,
    /// model, DateTimeOriginal and a GPS directory (latitude), big-endian TIFF.
    static func withEXIF(
        _ jpeg: [UInt8], orientation: UInt16, make: String = "Browsey", model: String = "Test Camera 1",
        taken: String = "2024:05:01 10:30:00"
    ) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8]
        func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] {
            [
                UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
                UInt8(value & 0xFF),
            ]
        }
        let makeBytes = Array(make.utf8) + [0]
        let modelBytes = Array(model.utf8) + [0]
        let takenBytes = Array(taken.utf8) + [0]
        // IFD0: 5 entries at 8; its data after it.
        let ifd0Size = 2 + 5 * 12 + 4
        let makeOffset = 8 + ifd0Size
        let modelOffset = makeOffset + makeBytes.count
        let exifOffset = modelOffset + modelBytes.count
        let exifSize = 2 + 12 + 4
        let takenOffset = exifOffset + exifSize
        let gpsOffset = takenOffset + takenBytes.count
        let gpsSize = 2 + 2 * 12 + 4
        let latitudeOffset = gpsOffset + gpsSize
        tiff += u16(5)
        tiff += u16(0x010F) + u16(2) + u32(makeBytes.count) + u32(makeOffset)
        tiff += u16(0x0110) + u16(2) + u32(modelBytes.count) + u32(modelOffset)
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        tiff += u16(0x8769) + u16(4) + u32(1) + u32(exifOffset)
        tiff += u16(0x8825) + u16(4) + u32(1) + u32(gpsOffset)
        tiff += u32(0)
        tiff += makeBytes + modelBytes
        tiff += u16(1) + u16(0x9003) + u16(2) + u32(takenBytes.count) + u32(takenOffset) + u32(0)
        tiff += takenBytes
        tiff += u16(2)
        tiff += u16(0x0001) + u16(2) + u32(2) + Array("N".utf8) + [0, 0, 0]
        tiff += u16(0x0002) + u16(5) + u32(3) + u32(latitudeOffset)
        tiff += u32(0)
        tiff += u32(48) + u32(1) + u32(51) + u32(1) + u32(3000) + u32(100)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    // MARK: PNG

    /// A PNG of rows (see ``GeneratedPNG``).
    static func png(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8 = 8, palette: [UInt8] = [], rows: [UInt8]
    )
        -> [UInt8]
    {
        GeneratedPNG.encode(
            width: width, height: height, colorType: colorType, bitDepth: bitDepth, palette: palette,
            rows: rows)
    }

    /// Just the start of a PNG that claims `width` x `height`.
    static func pngHeaderOnly(width: UInt32, height: UInt32) -> [UInt8] {
        GeneratedPNG.headerOnly(width: width, height: height)
    }

    /// Pixels as PNG rows.
    static func pngRows(_ pixels: [UInt8], width: Int, height: Int, channels: Int = 3) -> [UInt8] {
        GeneratedPNG.rows(pixels, width: width, height: height, channels: channels)
    }

    // MARK: GIF

    /// A GIF of palette indices (8-bit codes, a clear code every 250 so the code size stays 9).
    static func gif(width: Int, height: Int, palette: [UInt8], indices: [UInt8]) -> [UInt8] {
        var out = Array("GIF89a".utf8)
        out += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0xF7, 0, 0]
        var table = palette
        table += [UInt8](repeating: 0, count: 768 - table.count)
        out += table
        out += [
            0x2C, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF),
            UInt8(height >> 8), 0,
        ]
        out.append(8)
        var codes: [Int] = [256]
        for (index, value) in indices.enumerated() {
            if index > 0 && index % 250 == 0 { codes.append(256) }
            codes.append(Int(value))
        }
        codes.append(257)
        var data: [UInt8] = []
        var bits: UInt32 = 0
        var count = 0
        for code in codes {
            bits |= UInt32(code) << UInt32(count)
            count += 9
            while count >= 8 {
                data.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        if count > 0 { data.append(UInt8(bits & 0xFF)) }
        var offset = 0
        while offset < data.count {
            let size = min(255, data.count - offset)
            out.append(UInt8(size))
            out += data[offset..<offset + size]
            offset += size
        }
        out += [0, 0x3B]
        return out
    }

    // MARK: BMP

    /// A 24-bit bottom-up BMP of RGB pixels.
    static func bmp(_ rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        let stride = (width * 3 + 3) / 4 * 4
        func le32(_ value: Int) -> [UInt8] {
            [
                UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF),
                UInt8(value >> 24 & 0xFF),
            ]
        }
        var out: [UInt8] = Array("BM".utf8) + le32(54 + stride * height) + le32(0) + le32(54)
        out += le32(40) + le32(width) + le32(height) + [1, 0, 24, 0] + le32(0) + le32(stride * height)
        out += le32(2835) + le32(2835) + le32(0) + le32(0)
        for y in (0..<height).reversed() {
            for x in 0..<width {
                let at = (y * width + x) * 3
                out += [rgb[at + 2], rgb[at + 1], rgb[at]]
            }
            out += [UInt8](repeating: 0, count: stride - width * 3)
        }
        return out
    }

    // MARK: WebP

    /// A lossy WebP of RGB pixels, by the encoder the thumbnails use (the system's libwebp,
    /// found at run time); `nil` without it.
    static func webp(_ rgb: [UInt8], width: Int, height: Int) -> [UInt8]? {
        WebPLibrary.shared?.encode(PixelImage(pixels: rgb, width: width, height: height), quality: 80)
    }

    /// A HEIC (or, with `avif`, an AVIF) of RGB pixels, made by libheif's own `heif-enc` from a
    /// PNG; `nil` when the tool is not installed (`Scripts/test` installs it).
    static func heif(_ rgb: [UInt8], width: Int, height: Int, avif: Bool = false) -> [UInt8]? {
        let tools: [String] = ["/usr/bin/heif-enc", "/usr/local/bin/heif-enc", "/opt/homebrew/bin/heif-enc"]
        guard let tool = tools.first(where: { access($0, X_OK) == 0 }) else { return nil }
        let folder = "/tmp/browsey-heif-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o700)
        defer {
            for name in ["in.png", "out"] { unlink(folder + "/" + name) }
            rmdir(folder)
        }
        guard
            write(
                png(
                    width: width, height: height, colorType: 2,
                    rows: pngRows(rgb, width: width, height: height)), to: folder + "/in.png")
        else { return nil }
        var arguments = [tool, "-q", "90", "-o", folder + "/out", folder + "/in.png"]
        if avif { arguments.insert("-A", at: 1) }
        guard run(arguments) == 0 else { return nil }
        return read(folder + "/out")
    }

    /// Runs a program with fixed arguments and its output thrown away; its exit status.
    private static func run(_ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }

    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count
    }

    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// An uncompressed little-endian baseline TIFF of RGB pixels, with an orientation tag.
    /// `claimedWidth`/`claimedHeight` put other sizes in the directory (for lying headers).
    static func tiff(
        _ rgb: [UInt8], width: Int, height: Int, orientation: UInt16 = 1, claimedWidth: Int? = nil,
        claimedHeight: Int? = nil
    ) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
        let entries = 11
        let bitsAt = 8 + 2 + entries * 12 + 4
        let pixelsAt = bitsAt + 6
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let short = 3
        let long = 4
        var bytes: [UInt8] = Array("II".utf8) + u16(42) + u32(8) + u16(entries)
        bytes += entry(256, long, 1, u32(claimedWidth ?? width))
        bytes += entry(257, long, 1, u32(claimedHeight ?? height))
        bytes += entry(258, short, 3, u32(bitsAt))
        bytes += entry(259, short, 1, u16(1))  // no compression
        bytes += entry(262, short, 1, u16(2))  // RGB
        bytes += entry(273, long, 1, u32(pixelsAt))
        bytes += entry(274, short, 1, u16(Int(orientation)))
        bytes += entry(277, short, 1, u16(3))
        bytes += entry(278, long, 1, u32(height))
        bytes += entry(279, long, 1, u32(rgb.count))
        bytes += entry(284, short, 1, u16(1))  // interleaved
        bytes += u32(0) + u16(8) + u16(8) + u16(8)
        return bytes + rgb
    }
}
