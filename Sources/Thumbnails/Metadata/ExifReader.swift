/// EXIF as a JPEG's APP1 segment carries it (`Exif\0\0` and a TIFF structure): the orientation,
/// `DateTimeOriginal`, `Make` and `Model`, nothing else. Every offset is checked against the
/// segment; a damaged or hostile segment gives fewer fields, never a crash or a long loop.
struct ExifReader {
    /// What was found.
    struct Fields: Equatable {
        var orientation: Int?
        var taken: String?
        var make: String?
        var model: String?
    }

    /// The largest number of entries read from one directory.
    static let entryLimit = 512
    private let tiff: ArraySlice<UInt8>
    private let bigEndian: Bool

    /// A reader over the TIFF structure following `Exif\0\0`, or `nil` when the payload is not EXIF.
    init?(app1 payload: ArraySlice<UInt8>) {
        let signature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        guard payload.count >= 14, Array(payload.prefix(6)) == signature else { return nil }
        let tiff = payload.dropFirst(6)
        let start = tiff.startIndex
        switch (tiff[start], tiff[start + 1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.tiff = tiff
        guard read16(2) == 42 else { return nil }
    }

    /// Reads the fields this module uses.
    func fields() -> Fields {
        var fields = Fields()
        guard let first = read32(4) else { return fields }
        var exifDirectory: Int?
        entries(at: Int(first)) { tag, type, count, valueOffset in
            switch tag {
            case 0x0112:
                if type == 3, let value = read16(valueOffset), (1...8).contains(value) {
                    fields.orientation = Int(value)
                }
            case 0x010F: fields.make = ascii(type: type, count: count, valueOffset: valueOffset)
            case 0x0110: fields.model = ascii(type: type, count: count, valueOffset: valueOffset)
            case 0x8769: if type == 4, let offset = read32(valueOffset) { exifDirectory = Int(offset) }
            default: break
            }
        }
        if let exifDirectory, exifDirectory != Int(first) {
            entries(at: exifDirectory) { tag, type, count, valueOffset in
                if tag == 0x9003 { fields.taken = ascii(type: type, count: count, valueOffset: valueOffset) }
            }
        }
        return fields
    }

    /// Calls `body` with each entry's tag, type, count and where its value lies (inline, or at
    /// the offset the entry holds; the offset is checked by whoever reads it).
    private func entries(at offset: Int, _ body: (UInt16, UInt16, Int, Int) -> Void) {
        guard let count = read16(offset) else { return }
        for index in 0..<min(Int(count), Self.entryLimit) {
            let entry = offset + 2 + index * 12
            guard let tag = read16(entry), let type = read16(entry + 2), let count = read32(entry + 4) else {
                return
            }
            let size = Int(count) * (Self.typeSizes[Int(type)] ?? 1)
            let valueOffset: Int
            if size <= 4 {
                valueOffset = entry + 8
            } else if let pointer = read32(entry + 8) {
                valueOffset = Int(pointer)
            } else {
                return
            }
            body(tag, type, Int(count), valueOffset)
        }
    }

    private static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8]

    /// An ASCII value without its terminating NULs and trailing spaces; `nil` when empty,
    /// out of bounds or absurdly long.
    private func ascii(type: UInt16, count: Int, valueOffset: Int) -> String? {
        guard type == 2, count > 0, count <= 256, let bytes = bytes(at: valueOffset, count: count) else {
            return nil
        }
        let text = bytes.prefix { $0 != 0 }.filter { $0 >= 0x20 && $0 < 0x7F }
        let trimmed = String(decoding: text, as: UTF8.self).trimmingSpaces()
        return trimmed.isEmpty ? nil : trimmed
    }

    private func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, count >= 0, offset <= tiff.count - count else { return nil }
        let start = tiff.startIndex + offset
        return tiff[start..<start + count]
    }

    private func read16(_ offset: Int) -> UInt16? {
        guard let bytes = bytes(at: offset, count: 2) else { return nil }
        let a = UInt16(bytes[bytes.startIndex])
        let b = UInt16(bytes[bytes.startIndex + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private func read32(_ offset: Int) -> UInt32? {
        guard let high = read16(bigEndian ? offset : offset + 2),
            let low = read16(bigEndian ? offset + 2 : offset)
        else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }
}

extension String {
    /// The text without leading and trailing spaces.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { $0 != " " }) else { return "" }
        let last = scalars.lastIndex(where: { $0 != " " }) ?? first
        return String(scalars[first...last])
    }
}
