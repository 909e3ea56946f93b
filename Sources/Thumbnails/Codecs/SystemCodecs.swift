import CThumbnailCodecs

/// libjpeg-turbo and libpng, through the C target that keeps their `longjmp`s to itself.
enum SystemCodecs {
    /// A JPEG decoded down to at most `longest` on its longest side (DCT scaling, then area
    /// averaging).
    static func jpeg(_ bytes: [UInt8], longest: Int, maximumPixels: Int) throws(ThumbnailError) -> PixelImage
    {
        var image = bt_image()
        let status = bytes.withUnsafeBufferPointer {
            bt_jpeg_thumbnail($0.baseAddress, $0.count, UInt32(longest), UInt64(maximumPixels), &image)
        }
        return try result(status, image, format: "JPEG")
    }

    /// A PNG's first image decoded down to at most `longest` on its longest side.
    static func png(_ bytes: [UInt8], longest: Int, maximumPixels: Int) throws(ThumbnailError) -> PixelImage {
        var image = bt_image()
        let status = bytes.withUnsafeBufferPointer {
            bt_png_thumbnail($0.baseAddress, $0.count, UInt32(longest), UInt64(maximumPixels), &image)
        }
        return try result(status, image, format: "PNG")
    }

    /// ``png(_:longest:maximumPixels:)`` for bytes the decoder may rearrange while it runs: the
    /// pieces of the image data are moved together in place rather than copied (every byte is
    /// back in place when it returns). `bytes` must be the caller's own, or lending it copies it.
    static func png(
        rearranging bytes: inout [UInt8], longest: Int, maximumPixels: Int
    ) throws(ThumbnailError) -> PixelImage {
        var image = bt_image()
        let status = bytes.withUnsafeMutableBufferPointer {
            bt_png_thumbnail_in_place(
                $0.baseAddress, $0.count, UInt32(longest), UInt64(maximumPixels), &image)
        }
        return try result(status, image, format: "PNG")
    }

    /// A HEIF (HEIC) or AVIF picture through libheif, already upright; its size as shown.
    static func heif(
        _ bytes: [UInt8], longest: Int, maximumPixels: Int
    ) throws(ThumbnailError) -> (
        PixelImage, width: Int, height: Int
    ) {
        var image = bt_image()
        let status = bytes.withUnsafeBufferPointer {
            bt_heif_thumbnail($0.baseAddress, $0.count, UInt32(longest), UInt64(maximumPixels), &image)
        }
        if status == Int32(BT_UNAVAILABLE) {
            throw ThumbnailError(.notThumbnailable, "libheif is not installed: no thumbnails of HEIC or AVIF")
        }
        let picture = try result(status, image, format: "HEIF")
        return (picture, Int(image.source_width), Int(image.source_height))
    }

    /// A TIFF picture through libtiff, already upright; its size as stored.
    static func tiff(
        _ bytes: [UInt8], longest: Int, maximumPixels: Int
    ) throws(ThumbnailError) -> (PixelImage, width: Int, height: Int) {
        var image = bt_image()
        let status = bytes.withUnsafeBufferPointer {
            bt_tiff_thumbnail($0.baseAddress, $0.count, UInt32(longest), UInt64(maximumPixels), &image)
        }
        if status == Int32(BT_UNAVAILABLE) {
            throw ThumbnailError(.notThumbnailable, "libtiff is not installed: no thumbnails of TIFF")
        }
        let picture = try result(status, image, format: "TIFF")
        return (picture, Int(image.source_width), Int(image.source_height))
    }

    /// RGB rows as a JPEG with no metadata.
    static func encodeJPEG(_ image: PixelImage, quality: Int) throws(ThumbnailError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = image.pixels.withUnsafeBufferPointer {
            bt_jpeg_encode(
                $0.baseAddress, UInt32(image.width), UInt32(image.height), Int32(quality), &output, &size)
        }
        guard status == Int32(BT_OK), let output else {
            throw ThumbnailError(.outOfMemory, "The thumbnail could not be encoded")
        }
        defer { bt_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private static func result(
        _ status: Int32, _ image: bt_image, format: String
    ) throws(ThumbnailError) -> PixelImage {
        switch status {
        case Int32(BT_OK):
            guard let pixels = image.pixels else { throw ThumbnailError(.outOfMemory, "No pixels") }
            return PixelImage(taking: pixels, width: Int(image.width), height: Int(image.height))
        case Int32(BT_TOO_LARGE):
            throw ThumbnailError(.imageTooLarge, "The \(format) picture has more pixels than allowed")
        case Int32(BT_NO_MEMORY):
            throw ThumbnailError(.outOfMemory, "No memory to decode the \(format) picture")
        default: throw ThumbnailError(.notThumbnailable, "The \(format) picture cannot be decoded")
        }
    }
}
