extension PixelImage {
    /// The picture turned upright for an EXIF orientation (1 to 8; anything else leaves it as
    /// it is).
    func oriented(_ orientation: Int) -> PixelImage {
        guard (2...8).contains(orientation) else { return self }
        let transposed = orientation >= 5
        let outWidth = transposed ? height : width
        let outHeight = transposed ? width : height
        var output = [UInt8](repeating: 0, count: pixels.count)
        let (w, h) = (width, height)
        for y in 0..<outHeight {
            for x in 0..<outWidth {
                // Where the shown pixel (x, y) is stored.
                let (sx, sy): (Int, Int) =
                    switch orientation {
                    case 2: (w - 1 - x, y)
                    case 3: (w - 1 - x, h - 1 - y)
                    case 4: (x, h - 1 - y)
                    case 5: (y, x)
                    case 6: (y, h - 1 - x)
                    case 7: (w - 1 - y, h - 1 - x)
                    default: (w - 1 - y, x)
                    }
                let from = (sy * w + sx) * 3
                let to = (y * outWidth + x) * 3
                output[to] = pixels[from]
                output[to + 1] = pixels[from + 1]
                output[to + 2] = pixels[from + 2]
            }
        }
        return PixelImage(pixels: output, width: outWidth, height: outHeight)
    }
}
