/// Names that do not clash with anything already in a folder: `Untitled`, `Untitled 1`, … for
/// new items, `name (copy).ext`, `name (copy 2).ext`, … for copies.
///
/// A free name can be taken by someone else before it is used: the operations that create
/// items (``FileOperations/copy(_:into:)``) retry with the next name when that happens.
public enum UniqueName {
    /// The first of `base`, `base 1`, `base 2`, … (with `.pathExtension` after it) not taken in
    /// `folder`.
    public static func numbered(
        _ base: String = "Untitled", pathExtension: String? = nil, in folder: String,
        isTaken: ((String) -> Bool)? = nil
    ) -> String {
        let taken = isTaken ?? { SystemCalls.exists(PathText.join(folder, $0)) }
        let suffix = pathExtension.map { $0.isEmpty ? "" : "." + $0 } ?? ""
        var number = 0
        while true {
            let candidate = number == 0 ? base + suffix : "\(base) \(number)\(suffix)"
            if !taken(candidate) { return candidate }
            number += 1
        }
    }

    /// The first free name for a copy of `name` in `folder`: `report (copy).pdf`, then
    /// `report (copy 2).pdf`, … A copy of a copy joins the same family (`report (copy 3).pdf`,
    /// not `report (copy) (copy).pdf`). A folder's whole name is its base unless it is a
    /// package, so `v1.2` becomes `v1.2 (copy)`.
    public static func copy(
        of name: String, in folder: String, keepsExtension: Bool = true, isTaken: ((String) -> Bool)? = nil
    ) -> String {
        let taken = isTaken ?? { SystemCalls.exists(PathText.join(folder, $0)) }
        let ext = keepsExtension ? FileName.pathExtension(of: name).map(String.init) : nil
        let stem = ext == nil ? name : String(FileName.displayName(of: name))
        let base = stripCopySuffix(stem)
        let suffix = ext.map { "." + $0 } ?? ""
        var number = 1
        while true {
            let candidate = number == 1 ? "\(base) (copy)\(suffix)" : "\(base) (copy \(number))\(suffix)"
            if !taken(candidate) { return candidate }
            number += 1
        }
    }

    /// `"x (copy)"` and `"x (copy 7)"` become `"x"`; anything else is returned as it is.
    static func stripCopySuffix(_ stem: String) -> String {
        let marker = " (copy"
        guard stem.hasSuffix(")") else { return stem }
        var start = stem.index(before: stem.endIndex)
        while true {
            if stem[start...].hasPrefix(marker) { break }
            guard start > stem.startIndex else { return stem }
            start = stem.index(before: start)
        }
        let inside = stem[stem.index(start, offsetBy: marker.count)..<stem.index(before: stem.endIndex)]
        if inside.isEmpty { return String(stem[..<start]) }
        guard inside.first == " ", inside.count > 1, inside.dropFirst().allSatisfy({ $0.isNumber }) else {
            return stem
        }
        return String(stem[..<start])
    }
}
