#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// libwebp's simple decoding and encoding calls, found at run time: the machine image has the
/// library (`libwebp7`) but not its headers, and a machine without it still builds and serves.
struct WebPLibrary: Sendable {
    typealias GetInfo =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
        ) -> Int32
    typealias DecodeRGBAInto =
        @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, Int32) ->
        UnsafeMutablePointer<UInt8>?

    typealias EncodeRGB =
        @convention(c) (
            UnsafePointer<UInt8>?, Int32, Int32, Int32, Float,
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        ) -> Int
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let getInfo: GetInfo
    let decodeRGBAInto: DecodeRGBAInto
    /// `WebPEncodeRGB` and `WebPFree`: the lossy encoder at its default effort (method 4).
    let encodeRGB: EncodeRGB?
    let free: Free?

    /// Where the library is looked for, in order.
    static var candidates: [String] {
        #if canImport(Darwin)
            ["libwebp.7.dylib", "/opt/homebrew/lib/libwebp.dylib", "/usr/local/lib/libwebp.dylib"]
        #else
            ["libwebp.so.7", "libwebp.so"]
        #endif
    }

    /// Whether the library is installed (looked for, not loaded: see ``LibraryProbe``).
    static var isInstalled: Bool { LibraryProbe.isInstalled(candidates.filter { $0.hasPrefix("lib") }) }

    /// The library, loaded once per process on first use; `nil` when it is not installed.
    static let shared: WebPLibrary? = load()

    private static func load() -> WebPLibrary? {
        guard let handle = candidates.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first,
            let getInfo = dlsym(handle, "WebPGetInfo"), let decode = dlsym(handle, "WebPDecodeRGBAInto")
        else { return nil }
        let encode = dlsym(handle, "WebPEncodeRGB")
        let free = dlsym(handle, "WebPFree")
        let encodes = encode != nil && free != nil
        return WebPLibrary(
            getInfo: unsafeBitCast(getInfo, to: GetInfo.self),
            decodeRGBAInto: unsafeBitCast(decode, to: DecodeRGBAInto.self),
            encodeRGB: encodes ? unsafeBitCast(encode, to: EncodeRGB.self) : nil,
            free: encodes ? unsafeBitCast(free, to: Free.self) : nil)
    }

    /// `image` as a lossy WebP of `quality` (0-100), with no metadata; `nil` when this
    /// library has no encoder or it failed.
    func encode(_ image: PixelImage, quality: Int) -> [UInt8]? {
        guard let encodeRGB, let free, image.width > 0, image.height > 0,
            image.width <= 16383, image.height <= 16383
        else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer {
            encodeRGB(
                $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 3),
                Float(quality),
                &output)
        }
        guard let output else { return nil }
        defer { free(output) }
        guard size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// A WebP picture (its first frame) decoded and brought down to at most `longest`.
    func thumbnail(_ bytes: [UInt8], longest: Int, maximumPixels: Int) throws(ThumbnailError) -> PixelImage {
        var width: Int32 = 0
        var height: Int32 = 0
        let known = bytes.withUnsafeBufferPointer { getInfo($0.baseAddress, $0.count, &width, &height) }
        guard known != 0, width > 0, height > 0 else {
            throw ThumbnailError(.notThumbnailable, "The WebP picture cannot be decoded")
        }
        guard Int(width) * Int(height) <= maximumPixels else {
            throw ThumbnailError(.imageTooLarge, "The WebP picture has more pixels than allowed")
        }
        let stride = Int(width) * 4
        var rgba = [UInt8](repeating: 0, count: stride * Int(height))
        let decoded = bytes.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { target in
                decodeRGBAInto(
                    source.baseAddress, source.count, target.baseAddress, target.count, Int32(stride)) != nil
            }
        }
        guard decoded else { throw ThumbnailError(.notThumbnailable, "The WebP picture cannot be decoded") }
        let resampler = try RowResampler(sourceWidth: Int(width), sourceHeight: Int(height), longest: longest)
        rgba.withUnsafeBufferPointer { buffer in
            for row in 0..<Int(height) { resampler.add(buffer, offset: row * stride, channels: 4) }
        }
        return try resampler.finish()
    }
}
