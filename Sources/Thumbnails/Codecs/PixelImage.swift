import CThumbnailCodecs

/// 8-bit RGB pixels, rows top to bottom without padding.
struct PixelImage: Sendable, Equatable {
    var pixels: [UInt8]
    var width: Int
    var height: Int

    /// Takes over a buffer the C side allocated (and frees it).
    init(taking pointer: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
        pixels = Array(UnsafeBufferPointer(start: pointer, count: width * height * 3))
        bt_free(pointer)
        self.width = width
        self.height = height
    }

    init(pixels: [UInt8], width: Int, height: Int) {
        self.pixels = pixels
        self.width = width
        self.height = height
    }

    /// The pixel at a place, as `(r, g, b)`.
    func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let index = (y * width + x) * 3
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }
}

/// The C resampler fed from Swift: area averaging down to at most `longest` on the longest side.
struct RowResampler: ~Copyable {
    private let resampler: OpaquePointer
    /// The output size.
    let width: Int
    let height: Int

    /// A resampler for a `sourceWidth` x `sourceHeight` picture.
    init(sourceWidth: Int, sourceHeight: Int, longest: Int) throws(ThumbnailError) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        bt_fit(UInt32(sourceWidth), UInt32(sourceHeight), UInt32(longest), &width, &height)
        guard
            let resampler = bt_resampler_create(UInt32(sourceWidth), UInt32(sourceHeight), width, height)
        else {
            throw ThumbnailError(.outOfMemory, "No memory to resample the picture")
        }
        self.resampler = resampler
        self.width = Int(width)
        self.height = Int(height)
    }

    /// Adds the next row, starting at `offset` in `buffer`: `channels` 3 (RGB) or 4 (RGBA,
    /// composited on white). The caller has checked that the row lies inside the buffer.
    func add(_ buffer: UnsafeBufferPointer<UInt8>, offset: Int = 0, channels: Int) {
        guard let base = buffer.baseAddress else { return }
        bt_resampler_add_row(resampler, base + offset, UInt32(channels))
    }

    /// The output.
    consuming func finish() throws(ThumbnailError) -> PixelImage {
        let pointer = bt_resampler_finish(resampler)
        let (width, height) = (self.width, self.height)
        discard self
        // The resampler allocated its output at creation: it is there.
        guard let pointer else { throw ThumbnailError(.outOfMemory, "No memory for the thumbnail") }
        return PixelImage(taking: pointer, width: width, height: height)
    }

    deinit { bt_resampler_discard(resampler) }
}
