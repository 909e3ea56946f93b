/// Sizes for people: `120 B`, `1.5 MB`, `12 GB` (powers of 1000, as Finder and most file
/// managers show them).
public enum ByteCount {
    /// `bytes` as a short text.
    public static func text(_ bytes: Int64) -> String {
        guard bytes >= 1000 else { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB", "PB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let rounded = value < 10 ? (value * 10).rounded() / 10 : value.rounded()
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }
}
