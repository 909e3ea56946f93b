extension ImageMetadata {
    /// How much of a file's start ``read(_:)`` wants: room for a JPEG's EXIF segment (at most
    /// 64 KiB) after a JFIF segment and a little more.
    public static let headerLength = 192 * 1024

    /// The metadata in a file's first bytes (``headerLength`` of them are enough), or `nil` when
    /// they are not the start of a picture this module reads.
    public static func read(_ bytes: [UInt8]) -> ImageMetadata? {
        switch ImageFormat.sniff(bytes) {
        case .jpeg: readJPEG(bytes)
        case .png:
            bytes.count >= 24 && bytes[12..<16].elementsEqual("IHDR".utf8)
                ? sized(.png, Int(bigEndian32(bytes, 16)), Int(bigEndian32(bytes, 20))) : nil
        case .gif:
            bytes.count >= 10
                ? sized(.gif, Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8) : nil
        case .webp: readWebP(bytes)
        case .bmp:
            BMPDecoder.header(bytes).map { sized(.bmp, $0.width, $0.height) } ?? nil
        default: nil
        }
    }

    private static func sized(_ format: ImageFormat, _ width: Int, _ height: Int) -> ImageMetadata? {
        width > 0 && height > 0 ? ImageMetadata(format: format, width: width, height: height) : nil
    }

    /// Walks the segments up to the first frame header, reading EXIF on the way.
    private static func readJPEG(_ bytes: [UInt8]) -> ImageMetadata? {
        var offset = 2
        var exif = ExifReader.Fields()
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { return nil }
            let payloadStart = offset + 4
            let payloadEnd = min(bytes.count, offset + 2 + length)
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard payloadEnd - payloadStart >= 5 else { return nil }
                let height = Int(bytes[payloadStart + 1]) << 8 | Int(bytes[payloadStart + 2])
                let width = Int(bytes[payloadStart + 3]) << 8 | Int(bytes[payloadStart + 4])
                guard width > 0, height > 0 else { return nil }
                return ImageMetadata(
                    format: .jpeg, width: width, height: height, orientation: exif.orientation,
                    taken: exif.taken,
                    camera: camera(make: exif.make, model: exif.model))
            }
            if marker == 0xE1, exif == ExifReader.Fields(), payloadStart <= payloadEnd,
                let reader = ExifReader(app1: bytes[payloadStart..<payloadEnd])
            {
                exif = reader.fields()
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            offset += 2 + length
        }
        return nil
    }

    /// `Make` and `Model` as one name: "Canon Canon EOS R5" reads "Canon EOS R5".
    static func camera(make: String?, model: String?) -> String? {
        switch (make, model) {
        case (nil, nil): nil
        case (let make?, nil): make
        case (nil, let model?): model
        case (let make?, let model?):
            model.lowercased().hasPrefix(
                make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased())
                ? model : make + " " + model
        }
    }

    private static func readWebP(_ bytes: [UInt8]) -> ImageMetadata? {
        guard bytes.count >= 30 else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return nil }
            return sized(
                .webp, (Int(bytes[26]) | Int(bytes[27]) << 8) & 0x3FFF,
                (Int(bytes[28]) | Int(bytes[29]) << 8) & 0x3FFF)
        case "VP8L":
            guard bytes[20] == 0x2F else { return nil }
            let bits =
                UInt32(bytes[21]) | UInt32(bytes[22]) << 8 | UInt32(bytes[23]) << 16 | UInt32(bytes[24]) << 24
            return sized(.webp, Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            let width = Int(bytes[24]) | Int(bytes[25]) << 8 | Int(bytes[26]) << 16
            let height = Int(bytes[27]) | Int(bytes[28]) << 8 | Int(bytes[29]) << 16
            return sized(.webp, width + 1, height + 1)
        default: return nil
        }
    }

    static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
