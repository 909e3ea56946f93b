/// GIF's first frame, decoded here (LZW), composited on white over the logical screen.
/// Every read is checked against the file; damaged data ends the frame early (the rest stays
/// white) or refuses it, never more.
enum GIFDecoder {
    /// The first frame brought down to at most `longest`.
    static func thumbnail(
        _ bytes: [UInt8], longest: Int, maximumPixels: Int
    ) throws(ThumbnailError) -> PixelImage {
        let failure = ThumbnailError(.notThumbnailable, "The GIF picture cannot be decoded")
        guard bytes.count >= 13, ImageFormat.sniff(bytes) == .gif else { throw failure }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        var screenWidth = u16(6)
        var screenHeight = u16(8)
        let flags = bytes[10]
        var offset = 13
        var globalPalette: ArraySlice<UInt8> = []
        if flags & 0x80 != 0 {
            let size = 3 << (Int(flags & 7) + 1)
            guard offset + size <= bytes.count else { throw failure }
            globalPalette = bytes[offset..<offset + size]
            offset += size
        }
        var transparent: Int?
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x21:
                guard offset + 2 <= bytes.count else { throw failure }
                if bytes[offset + 1] == 0xF9, offset + 7 <= bytes.count, bytes[offset + 2] == 4 {
                    transparent = bytes[offset + 3] & 1 != 0 ? Int(bytes[offset + 6]) : nil
                }
                offset = try skipSubBlocks(bytes, from: offset + 2)
            case 0x2C:
                guard offset + 10 <= bytes.count else { throw failure }
                let left = u16(offset + 1)
                let top = u16(offset + 3)
                let width = u16(offset + 5)
                let height = u16(offset + 7)
                let frameFlags = bytes[offset + 9]
                offset += 10
                var palette = globalPalette
                if frameFlags & 0x80 != 0 {
                    let size = 3 << (Int(frameFlags & 7) + 1)
                    guard offset + size <= bytes.count else { throw failure }
                    palette = bytes[offset..<offset + size]
                    offset += size
                }
                guard width > 0, height > 0, offset < bytes.count else { throw failure }
                if screenWidth == 0 || screenHeight == 0 {
                    screenWidth = left + width
                    screenHeight = top + height
                }
                guard screenWidth * screenHeight <= maximumPixels, width * height <= maximumPixels else {
                    throw ThumbnailError(.imageTooLarge, "The GIF picture has more pixels than allowed")
                }
                let minimumCodeSize = Int(bytes[offset])
                guard (2...8).contains(minimumCodeSize) else { throw failure }
                let data = try collectSubBlocks(bytes, from: offset + 1)
                let indices = decompress(data, minimumCodeSize: minimumCodeSize, count: width * height)
                var canvas = [UInt8](repeating: 255, count: screenWidth * screenHeight * 3)
                let rows = frameFlags & 0x40 != 0 ? interlacedRows(height) : Array(0..<height)
                for (stored, y) in rows.enumerated() where top + y < screenHeight {
                    for x in 0..<width where left + x < screenWidth {
                        let index = Int(indices[stored * width + x])
                        if index == transparent { continue }
                        let color = palette.startIndex + index * 3
                        let at = ((top + y) * screenWidth + left + x) * 3
                        if color + 2 < palette.endIndex {
                            canvas[at] = palette[color]
                            canvas[at + 1] = palette[color + 1]
                            canvas[at + 2] = palette[color + 2]
                        } else {
                            (canvas[at], canvas[at + 1], canvas[at + 2]) = (0, 0, 0)
                        }
                    }
                }
                let resampler = try RowResampler(
                    sourceWidth: screenWidth, sourceHeight: screenHeight, longest: longest)
                canvas.withUnsafeBufferPointer { buffer in
                    for row in 0..<screenHeight {
                        resampler.add(buffer, offset: row * screenWidth * 3, channels: 3)
                    }
                }
                return try resampler.finish()
            default:
                throw failure
            }
        }
        throw failure
    }

    /// The offset after a run of sub-blocks (ended by an empty one).
    private static func skipSubBlocks(_ bytes: [UInt8], from start: Int) throws(ThumbnailError) -> Int {
        var offset = start
        while offset < bytes.count {
            let size = Int(bytes[offset])
            offset += 1 + size
            if size == 0 { return offset }
        }
        throw ThumbnailError(.notThumbnailable, "The GIF picture is cut short")
    }

    /// A run of sub-blocks joined; a file cut short gives what there is.
    private static func collectSubBlocks(_ bytes: [UInt8], from start: Int) throws(ThumbnailError) -> [UInt8]
    {
        var data: [UInt8] = []
        var offset = start
        while offset < bytes.count {
            let size = Int(bytes[offset])
            if size == 0 { break }
            let end = min(bytes.count, offset + 1 + size)
            data.append(contentsOf: bytes[offset + 1..<end])
            offset = end
        }
        guard !data.isEmpty else {
            throw ThumbnailError(.notThumbnailable, "The GIF picture has no image data")
        }
        return data
    }

    /// Rows of an interlaced frame in the order they are stored.
    private static func interlacedRows(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
            Array(stride(from: start, to: height, by: step))
        }
    }

    /// GIF's LZW: `count` palette indices (zeros where the data runs out or goes wrong).
    static func decompress(_ data: [UInt8], minimumCodeSize: Int, count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var prefix = [UInt16](repeating: 0, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        for code in 0..<clear { suffix[code] = UInt8(truncatingIfNeeded: code) }
        var stack = [UInt8](repeating: 0, count: 4097)
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var previous = -1
        var first: UInt8 = 0
        var written = 0
        var bits: UInt32 = 0
        var bitCount = 0
        var position = 0
        decoding: while written < count {
            while bitCount < codeSize {
                guard position < data.count else { break decoding }
                bits |= UInt32(data[position]) << UInt32(bitCount)
                position += 1
                bitCount += 8
            }
            let code = Int(bits & ((1 << UInt32(codeSize)) - 1))
            bits >>= UInt32(codeSize)
            bitCount -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == end { break }
            if previous < 0 {
                guard code < clear else { break }
                output[written] = UInt8(code)
                written += 1
                previous = code
                first = UInt8(code)
                continue
            }
            var depth = 0
            var current = code
            if code >= next {
                guard code == next else { break }
                stack[depth] = first
                depth += 1
                current = previous
            }
            while current > end {
                guard depth < 4096 else { break decoding }
                stack[depth] = suffix[current]
                depth += 1
                current = Int(prefix[current])
            }
            guard current < clear else { break }
            first = UInt8(current)
            stack[depth] = first
            depth += 1
            if next < 4096 {
                prefix[next] = UInt16(previous)
                suffix[next] = first
                next += 1
                if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
            }
            previous = code
            while depth > 0 && written < count {
                depth -= 1
                output[written] = stack[depth]
                written += 1
            }
        }
        return output
    }
}
