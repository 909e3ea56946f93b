import FileTree
public import Thumbnails

extension ThumbnailLoader {
    /// A generator for documents that are pictures themselves (JPEG, PNG, GIF, BMP, WebP, told
    /// by their bytes): a JPEG at most `longest` pixels on its longest side, upright, without
    /// the picture's metadata. Other documents, and packages, get `nil`. The loader uses it for
    /// documents without an embedded PNG when the host gives no generator of its own.
    public static func pictureGenerator(
        longest: Int = 512, thumbnailer: Thumbnailer = Thumbnailer()
    ) -> ThumbnailGenerator {
        { item in
            guard !item.isPackage, !Task.isCancelled else { return nil }
            let path = item.path
            return await BlockingWork.run {
                try? thumbnailer.thumbnail(atPath: path, longest: longest).encoded
            }
        }
    }
}
