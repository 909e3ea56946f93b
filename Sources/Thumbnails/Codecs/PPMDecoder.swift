/// Binary PPM (`P6`, 8-bit), what ffmpeg and pdftoppm write for a poster.
enum PPMDecoder {
    /// The picture brought down to at most `longest`.
    static func thumbnail(
        _ bytes: [UInt8], longest: Int, maximumPixels: Int
    ) throws(ThumbnailError) -> PixelImage {
        let failure = ThumbnailError(.notThumbnailable, "The poster could not be read")
        guard bytes.count > 2, bytes[0] == 0x50, bytes[1] == 0x36 else { throw failure }
        var offset = 2
        var numbers: [Int] = []
        while numbers.count < 3 {
            while offset < bytes.count,
                bytes[offset] == 0x20 || bytes[offset] == 0x0A || bytes[offset] == 0x0D
                    || bytes[offset] == 0x09
            {
                offset += 1
            }
            if offset < bytes.count, bytes[offset] == 0x23 {  // a comment to the end of the line
                while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
                continue
            }
            var value = 0
            var digits = 0
            while offset < bytes.count, (0x30...0x39).contains(bytes[offset]), digits < 9 {
                value = value * 10 + Int(bytes[offset] - 0x30)
                offset += 1
                digits += 1
            }
            guard digits > 0 else { throw failure }
            numbers.append(value)
        }
        offset += 1  // the one whitespace byte before the pixels
        let (width, height, maximum) = (numbers[0], numbers[1], numbers[2])
        guard width > 0, height > 0, maximum == 255 else { throw failure }
        guard width * height <= maximumPixels else {
            throw ThumbnailError(.imageTooLarge, "The poster has more pixels than allowed")
        }
        guard bytes.count - offset >= width * height * 3 else { throw failure }
        let resampler = try RowResampler(sourceWidth: width, sourceHeight: height, longest: longest)
        bytes.withUnsafeBufferPointer { buffer in
            for row in 0..<height {
                resampler.add(buffer, offset: offset + row * width * 3, channels: 3)
            }
        }
        return try resampler.finish()
    }
}
