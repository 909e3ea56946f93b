/// The sizes thumbnails are made in: a request is rounded up to the nearest class, so a grid of
/// any cell size shares a few cached files per picture.
public enum SizeClass {
    /// The longest side of each class, smallest first.
    public static let all = [128, 256, 512, 1024, 2048]

    /// The class for a request of `requested` pixels on the longest side: the smallest class at
    /// least that large (the largest class past it).
    public static func rounding(_ requested: Int) -> Int {
        all.first { $0 >= requested } ?? all[all.count - 1]
    }

    /// The longest side a thumbnail of class `sizeClass` has for a picture whose longest side
    /// is `original` (when known): never larger than the picture itself.
    public static func longestSide(of sizeClass: Int, original: Int?) -> Int {
        guard let original, original > 0 else { return sizeClass }
        return min(sizeClass, original)
    }
}
