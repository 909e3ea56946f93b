import TestSupport
import Testing

@testable import Thumbnails

@Suite("Thumbnails")
struct ThumbnailerTests {
    let thumbnailer = Thumbnailer()

    /// The thumbnail decoded back to pixels (by the module's own JPEG path, at full size).
    func decode(_ thumbnail: Thumbnail) throws -> PixelImage {
        try SystemCodecs.jpeg(thumbnail.encoded, longest: 0, maximumPixels: 1 << 30)
    }

    /// Where orientation `orientation` shows the stored pixel (x, y) of a `w` x `h` picture
    /// (EXIF's definition: which side row 0 and column 0 are on).
    static func shown(_ orientation: Int, x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch orientation {
        case 2: (w - 1 - x, y)
        case 3: (w - 1 - x, h - 1 - y)
        case 4: (x, h - 1 - y)
        case 5: (y, x)
        case 6: (h - 1 - y, x)
        case 7: (h - 1 - y, w - 1 - x)
        case 8: (y, w - 1 - x)
        default: (x, y)
        }
    }

    @Test("every EXIF orientation, 1 to 8, comes out upright", arguments: 1...8)
    func orientations(orientation: Int) throws {
        // Upright: 240 x 160 quadrants. Stored: turned so that the orientation turns it back.
        let (uw, uh) = (240, 160)
        let (sw, sh) = orientation >= 5 ? (uh, uw) : (uw, uh)
        let stored = TestImages.pixels(width: sw, height: sh) { x, y in
            let (ux, uy) = Self.shown(orientation, x: x, y: y, w: sw, h: sh)
            return TestImages.quadrant(x: ux, y: uy, width: uw, height: uh)
        }
        let file = TestImages.withEXIF(
            TestImages.jpeg(stored, width: sw, height: sh), orientation: UInt16(orientation))
        let thumbnail = try thumbnailer.thumbnail(of: file, longest: 128)
        #expect(thumbnail.width == 128 && thumbnail.height == 85)
        #expect(thumbnail.sourceWidth == uw && thumbnail.sourceHeight == uh)
        let image = try decode(thumbnail)
        func near(_ pixel: (UInt8, UInt8, UInt8), _ expected: (UInt8, UInt8, UInt8)) -> Bool {
            abs(Int(pixel.0) - Int(expected.0)) < 40 && abs(Int(pixel.1) - Int(expected.1)) < 40
                && abs(Int(pixel.2) - Int(expected.2)) < 40
        }
        let (w, h) = (image.width, image.height)
        #expect(near(image.pixel(x: w / 4, y: h / 4), (255, 0, 0)), "top left is red")
        #expect(near(image.pixel(x: 3 * w / 4, y: h / 4), (0, 255, 0)), "top right is green")
        #expect(near(image.pixel(x: w / 4, y: 3 * h / 4), (0, 0, 255)), "bottom left is blue")
        #expect(near(image.pixel(x: 3 * w / 4, y: 3 * h / 4), (255, 255, 255)), "bottom right is white")
    }

    @Test("a thumbnail carries no EXIF, no GPS, nothing but the JFIF header")
    func noMetadata() throws {
        let rgb = TestImages.photoLike(width: 300, height: 200, seed: 1)
        let file = TestImages.withEXIF(TestImages.jpeg(rgb, width: 300, height: 200), orientation: 1)
        #expect(ImageMetadata.read(file)?.camera == "Browsey Test Camera 1", "the input does carry EXIF")
        let jpeg = try thumbnailer.thumbnail(of: file, longest: 128).encoded
        // Walk the segments up to the scan: only APP0 (JFIF), tables and the frame.
        var offset = 2
        var markers: [UInt8] = []
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            markers.append(jpeg[offset + 1])
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        #expect(!markers.isEmpty)
        #expect(markers.allSatisfy { $0 == 0xE0 || $0 == 0xDB || $0 == 0xC4 || $0 == 0xC0 }, "\(markers)")
        #expect(!jpeg.indices.dropLast(4).contains { jpeg[$0...].starts(with: Array("Exif".utf8)) })
        #expect(ImageMetadata.read(jpeg)?.camera == nil && ImageMetadata.read(jpeg)?.orientation == nil)
    }

    @Test(
        "asked for WebP: a lossy WebP of the same size and picture, with no metadata, smaller than the JPEG")
    func webpEncoding() throws {
        let library = try #require(WebPLibrary.shared, "libwebp7 is installed by README's test command")
        let rgb = TestImages.photoLike(width: 640, height: 480, seed: 7)
        let file = TestImages.withEXIF(TestImages.jpeg(rgb, width: 640, height: 480), orientation: 6)
        let webp = try thumbnailer.thumbnail(of: file, longest: 256, encoding: .webp)
        let jpeg = try thumbnailer.thumbnail(of: file, longest: 256)
        #expect(webp.encoding == .webp && jpeg.encoding == .jpeg)
        #expect(webp.encoded.starts(with: "RIFF".utf8) && webp.encoded[8..<12].elementsEqual("WEBP".utf8))
        #expect(!webp.encoded.indices.dropLast(4).contains { webp.encoded[$0...].starts(with: "Exif".utf8) })
        #expect(webp.encoded.count < jpeg.encoded.count, "\(webp.encoded.count) vs \(jpeg.encoded.count)")
        // Upright (orientation 6 turns 640 x 480 to 480 x 640), and the same picture as the JPEG.
        #expect(
            webp.width == 192 && webp.height == 256 && webp.sourceWidth == 480 && webp.sourceHeight == 640)
        let back = try library.thumbnail(webp.encoded, longest: 256, maximumPixels: 1 << 20)
        let reference = try decode(jpeg)
        #expect(back.width == reference.width && back.height == reference.height)
        var difference = 0
        for index in back.pixels.indices {
            difference += abs(Int(back.pixels[index]) - Int(reference.pixels[index]))
        }
        #expect(
            difference / back.pixels.count < 8,
            "mean difference per channel: \(difference / back.pixels.count)")
    }

    @Test("EXIF gives the date taken and the camera")
    func exifFields() throws {
        let rgb = TestImages.pixels(width: 16, height: 16) { _, _ in (1, 2, 3) }
        let file = TestImages.withEXIF(
            TestImages.jpeg(rgb, width: 16, height: 16), orientation: 6, make: "Canon", model: "Canon EOS R5")
        let metadata = try #require(ImageMetadata.read(file))
        #expect(metadata.taken == "2024:05:01 10:30:00")
        #expect(metadata.camera == "Canon EOS R5")
        #expect(metadata.orientation == 6)
        #expect(metadata.width == 16 && metadata.displayWidth == 16)
    }

    @Test("a PNG claiming 50,000 x 50,000 pixels is refused from its header, at once")
    func hugePNG() throws {
        let file = TestImages.pngHeaderOnly(width: 50_000, height: 50_000)
        let start = ContinuousClock.now
        #expect {
            try thumbnailer.thumbnail(of: file, longest: 256)
        } throws: { ($0 as? ThumbnailError)?.code == .imageTooLarge }
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("an empty file is not thumbnailable")
    func emptyFile() {
        #expect {
            try thumbnailer.thumbnail(of: [], longest: 256)
        } throws: { ($0 as? ThumbnailError)?.code == .notThumbnailable }
    }

    @Test("resampling averages areas: a one-pixel checkerboard becomes grey, not black or white")
    func areaAveraging() throws {
        let rgb = TestImages.pixels(width: 256, height: 256) { x, y in
            (x + y) % 2 == 0 ? (0, 0, 0) : (255, 255, 255)
        }
        let file = TestImages.png(
            width: 256, height: 256, colorType: 2, rows: TestImages.pngRows(rgb, width: 256, height: 256))
        let image = try SystemCodecs.png(file, longest: 64, maximumPixels: 1 << 30)
        #expect(image.width == 64 && image.height == 64)
        #expect(image.pixels.allSatisfy { (120...135).contains($0) }, "every pixel mid-grey")
    }

    @Test("a JPEG is decoded at a DCT scale and brought to the size asked for")
    func jpegScaling() throws {
        let rgb = TestImages.photoLike(width: 2000, height: 1500, seed: 2)
        let file = TestImages.jpeg(rgb, width: 2000, height: 1500)
        let thumbnail = try thumbnailer.thumbnail(of: file, longest: 256)
        #expect(thumbnail.width == 256 && thumbnail.height == 192)
        #expect(thumbnail.sourceWidth == 2000 && thumbnail.sourceHeight == 1500)
        let small = try thumbnailer.thumbnail(
            of: TestImages.jpeg(rgb, width: 2000, height: 1500), longest: 4096)
        #expect(small.width == 2000 && small.height == 1500, "never larger than the picture")
    }

    @Test("transparent PNG pixels come out white; grey, palette and 16-bit PNGs decode")
    func pngVariants() throws {
        let clear = TestImages.png(
            width: 8, height: 8, colorType: 6,
            rows: TestImages.pngRows([UInt8](repeating: 0, count: 256), width: 8, height: 8, channels: 4))
        let white = try SystemCodecs.png(clear, longest: 8, maximumPixels: 1000)
        #expect(white.pixels.allSatisfy { $0 == 255 })
        let grey = TestImages.png(
            width: 4, height: 4, colorType: 0,
            rows: TestImages.pngRows([UInt8](repeating: 77, count: 16), width: 4, height: 4, channels: 1))
        #expect(try SystemCodecs.png(grey, longest: 4, maximumPixels: 1000).pixels.allSatisfy { $0 == 77 })
        let palette = TestImages.png(
            width: 4, height: 4, colorType: 3, palette: [10, 20, 30, 200, 100, 50],
            rows: TestImages.pngRows([UInt8](repeating: 1, count: 16), width: 4, height: 4, channels: 1))
        #expect(
            try SystemCodecs.png(palette, longest: 4, maximumPixels: 1000).pixel(x: 2, y: 2) == (200, 100, 50)
        )
        let deep = TestImages.png(
            width: 2, height: 2, colorType: 2, bitDepth: 16,
            rows: TestImages.pngRows([UInt8](repeating: 0xFF, count: 24), width: 2, height: 2, channels: 6))
        #expect(try SystemCodecs.png(deep, longest: 2, maximumPixels: 1000).pixels.allSatisfy { $0 == 255 })
    }

    @Test("GIF, BMP and WebP pictures make thumbnails too")
    func otherFormats() throws {
        let rgb = TestImages.pixels(width: 64, height: 32) { x, y in
            TestImages.quadrant(x: x, y: y, width: 64, height: 32)
        }
        let indices = (0..<(64 * 32)).map { index -> UInt8 in
            let (x, y) = (index % 64, index / 64)
            return UInt8((x < 32 ? 0 : 1) + (y < 16 ? 0 : 2))
        }
        let gif = TestImages.gif(
            width: 64, height: 32, palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255], indices: indices
        )
        for file in [gif, TestImages.bmp(rgb, width: 64, height: 32)]
            + [TestImages.webp(rgb, width: 64, height: 32)].compactMap({ $0 })
        {
            let thumbnail = try thumbnailer.thumbnail(of: file, longest: 32)
            #expect(thumbnail.width == 32 && thumbnail.height == 16)
            let image = try decode(thumbnail)
            let (r, g, b) = image.pixel(x: 4, y: 4)
            #expect(r > 200 && g < 60 && b < 60, "\(ImageFormat.sniff(file) as Any): top left red")
            let (r2, g2, b2) = image.pixel(x: 28, y: 12)
            #expect(r2 > 200 && g2 > 200 && b2 > 200, "\(ImageFormat.sniff(file) as Any): bottom right white")
        }
    }

    @Test("HEIC and AVIF pictures make upright thumbnails through libheif, sized as shown")
    func heifPictures() throws {
        let rgb = TestImages.pixels(width: 128, height: 64) { x, y in
            TestImages.quadrant(x: x, y: y, width: 128, height: 64)
        }
        for avif in [false, true] {
            let made = TestImages.heif(rgb, width: 128, height: 64, avif: avif)
            let file = try #require(made, "heif-enc (libheif-examples) is needed")
            #expect(ImageFormat.sniff(file) == (avif ? .avif : .heif))
            let thumbnail = try thumbnailer.thumbnail(of: file, longest: 32)
            #expect(thumbnail.width == 32 && thumbnail.height == 16)
            #expect(thumbnail.sourceWidth == 128 && thumbnail.sourceHeight == 64)
            let image = try decode(thumbnail)
            let (r, g, b) = image.pixel(x: 4, y: 4)
            #expect(r > 180 && g < 80 && b < 80, "\(avif ? "AVIF" : "HEIC"): top left red")
            let (r2, g2, b2) = image.pixel(x: 28, y: 12)
            #expect(r2 > 180 && g2 > 180 && b2 > 180, "\(avif ? "AVIF" : "HEIC"): bottom right white")
        }
    }

    @Test("damaged HEIC files are refused as not thumbnailable, never crash")
    func damagedHEIF() throws {
        let rgb = TestImages.photoLike(width: 96, height: 64, seed: 7)
        let made = TestImages.heif(rgb, width: 96, height: 64)
        let file = try #require(made, "heif-enc (libheif-examples) is needed")
        var random = SeededRandom(seed: 11)
        var damaged: [[UInt8]] = [Array(file.prefix(file.count / 2)), Array(file.prefix(40))]
        for _ in 0..<40 {
            var copy = file
            for _ in 0..<8 { copy[12 + Int(random.next() % UInt64(copy.count - 12))] ^= 0xFF }
            damaged.append(copy)
        }
        for bytes in damaged {
            do {
                let thumbnail = try thumbnailer.thumbnail(of: bytes, longest: 64)
                #expect(thumbnail.width <= 64 && thumbnail.height <= 64)
            } catch {
                #expect(error.code == .notThumbnailable || error.code == .imageTooLarge)
            }
        }
    }

    @Test("TIFF pictures make thumbnails through libtiff, turned by their orientation tag")
    func tiffPictures() throws {
        let rgb = TestImages.pixels(width: 64, height: 32) { x, y in
            TestImages.quadrant(x: x, y: y, width: 64, height: 32)
        }
        let upright = try thumbnailer.thumbnail(of: TestImages.tiff(rgb, width: 64, height: 32), longest: 32)
        #expect(upright.width == 32 && upright.height == 16)
        #expect(upright.sourceWidth == 64 && upright.sourceHeight == 32)
        let (r, g, b) = try decode(upright).pixel(x: 4, y: 4)
        #expect(r > 200 && g < 60 && b < 60, "top left red")
        let turned = try thumbnailer.thumbnail(
            of: TestImages.tiff(rgb, width: 64, height: 32, orientation: 3), longest: 32)
        let (r2, g2, b2) = try decode(turned).pixel(x: 4, y: 4)
        #expect(r2 > 200 && g2 > 200 && b2 > 200, "turned half a turn: the white corner is top left")
        #expect(thumbnailer.kind(forFileName: "scan.TIFF") == .picture(.tiff))
    }

    @Test("a TIFF claiming 50,000 x 50,000 pixels is refused from its directory; damaged TIFFs are refused")
    func hostileTIFF() throws {
        let rgb = TestImages.photoLike(width: 48, height: 32, seed: 5)
        let huge = TestImages.tiff(rgb, width: 48, height: 32, claimedWidth: 50_000, claimedHeight: 50_000)
        #expect(throws: ThumbnailError.self) { try thumbnailer.thumbnail(of: huge, longest: 64) }
        do {
            _ = try thumbnailer.thumbnail(of: huge, longest: 64)
        } catch {
            #expect(error.code == .imageTooLarge)
        }
        let file = TestImages.tiff(rgb, width: 48, height: 32)
        var random = SeededRandom(seed: 12)
        for round in 0..<60 {
            var bytes = file
            if round % 2 == 0 {
                bytes.removeSubrange((8 + Int(random.next() % UInt64(bytes.count - 8)))...)
            } else {
                for _ in 0..<4 { bytes[8 + Int(random.next() % 150)] ^= UInt8(1 << (random.next() % 8)) }
            }
            do {
                let thumbnail = try thumbnailer.thumbnail(of: bytes, longest: 64)
                #expect(thumbnail.width <= 64 && thumbnail.height <= 64)
            } catch {
                #expect(error.code == .notThumbnailable || error.code == .imageTooLarge)
            }
        }
    }

    @Test("HEIC and AVIF files are marked where libheif is installed, without loading it")
    func heifKinds() {
        #expect(thumbnailer.kind(forFileName: "IMG_0001.HEIC") == .picture(.heif))
        #expect(thumbnailer.kind(forFileName: "photo.avif") == .picture(.avif))
        #expect(thumbnailer.extensions.isSuperset(of: ["heic", "heif", "avif"]))
    }

    @Test("a 256-pixel thumbnail of a photo-like picture is at most 20 KB")
    func thumbnailSize() throws {
        var total = 0
        for seed in 1...5 {
            let rgb = TestImages.photoLike(width: 1200, height: 900, seed: UInt64(seed))
            total += try thumbnailer.thumbnail(
                of: TestImages.jpeg(rgb, width: 1200, height: 900), longest: 256
            ).encoded.count
        }
        #expect(total / 5 <= 20_000, "average \(total / 5) bytes")
    }

    @Test("sizes round up to a class, and never past the picture")
    func sizeClasses() {
        #expect(SizeClass.rounding(1) == 128)
        #expect(SizeClass.rounding(128) == 128)
        #expect(SizeClass.rounding(129) == 256)
        #expect(SizeClass.rounding(300) == 512)
        #expect(SizeClass.rounding(2048) == 2048)
        #expect(SizeClass.rounding(5000) == 2048)
        #expect(SizeClass.longestSide(of: 1024, original: 800) == 800)
        #expect(SizeClass.longestSide(of: 256, original: 800) == 256)
    }

    @Test("listings know the types: pictures always, videos and PDFs only with their tools")
    func kinds() {
        #expect(thumbnailer.kind(forFileName: "IMG_0001.JPG") == .picture(.jpeg))
        #expect(thumbnailer.kind(forFileName: "notes.txt") == nil)
        #expect(thumbnailer.kind(forFileName: "clip.mp4") == nil)
        #expect(thumbnailer.kind(forFileName: "paper.pdf") == nil)
        let withTools = Thumbnailer(
            posters: PosterTools(ffmpeg: "/usr/bin/ffmpeg", pdftoppm: "/usr/bin/pdftoppm"))
        #expect(withTools.kind(forFileName: "clip.mp4") == .video)
        #expect(withTools.kind(forFileName: "paper.pdf") == .pdf)
        #expect(thumbnailer.extensions.contains("jpg") && !thumbnailer.extensions.contains("mp4"))
    }

    @Test("corrupted pictures decode or are refused, never crash or hang (seeded damage)")
    func corruptedInputs() throws {
        let rgb = TestImages.photoLike(width: 96, height: 64, seed: 3)
        var originals = [
            TestImages.withEXIF(TestImages.jpeg(rgb, width: 96, height: 64), orientation: 6),
            TestImages.png(
                width: 96, height: 64, colorType: 2, rows: TestImages.pngRows(rgb, width: 96, height: 64)),
            TestImages.gif(
                width: 96, height: 64, palette: Array(rgb.prefix(768)),
                indices: rgb.prefix(96 * 64).map { $0 }),
            TestImages.bmp(rgb, width: 96, height: 64),
        ]
        if let webp = TestImages.webp(rgb, width: 96, height: 64) { originals.append(webp) }
        var random = SeededRandom(seed: 20)
        var decoded = 0
        for round in 0..<300 {
            var bytes = originals[round % originals.count]
            if round % 2 == 0 {
                bytes.removeSubrange(Int(random.next() % UInt64(bytes.count))...)
            } else {
                for _ in 0..<(1 + random.next() % 8) {
                    let at = Int(random.next() % UInt64(bytes.count))
                    bytes[at] ^= UInt8(1 << (random.next() % 8))
                }
            }
            do {
                _ = try thumbnailer.thumbnail(of: bytes, longest: 64)
                decoded += 1
            } catch {
                #expect(error.code == .notThumbnailable || error.code == .imageTooLarge, "\(error)")
            }
        }
        #expect(decoded > 0)
    }
}
