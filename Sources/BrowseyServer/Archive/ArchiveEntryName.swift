/// The names an archive gives its entries: safe for every unpacker, on every system.
///
/// A name on Linux may hold what another system reads as a way out of the folder being unpacked:
/// `\` is a separator on Windows (`..\..\x`), `C:` a drive and `name:stream` an NTFS stream, a
/// component of only dots and spaces becomes `..` once Windows trims it, and CR, LF and other
/// control characters confuse listings and scripts. So each component of an entry's path (the
/// path relative to the archived folder, `/`-separated) is rewritten:
/// - `\`, `:` and the control characters (U+0000–U+001F, U+007F) become `_`;
/// - a component made only of dots and spaces becomes that many `_`;
/// - empty components are dropped, so no name starts with `/` or holds `//`.
///
/// Names that come out equal are told apart by ``ArchiveEntryName/numbered(_:_:)``.
enum ArchiveEntryName {
    /// `a\b/C:x/../ok.txt` → `a_b/C_x/__/ok.txt`.
    static func safe(_ relativePath: String) -> String {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: true).map(
            safeComponent)
        return components.isEmpty ? "_" : components.joined(separator: "/")
    }

    static func safeComponent(_ component: Substring) -> String {
        if component.allSatisfy({ $0 == "." || $0 == " " }) {
            return String(repeating: "_", count: component.count)
        }
        var result = ""
        result.unicodeScalars.reserveCapacity(component.unicodeScalars.count)
        for scalar in component.unicodeScalars {
            if scalar == "\\" || scalar == ":" || scalar.value < 0x20 || scalar.value == 0x7F {
                result.unicodeScalars.append("_")
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `a/b.txt`, 2 → `a/b (2).txt`: the number goes before the last component's extension.
    static func numbered(_ name: String, _ number: Int) -> String {
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        let last = name[slash...]
        if let dot = last.lastIndex(of: "."), dot != last.startIndex {
            return String(name[..<dot]) + " (\(number))" + String(name[dot...])
        }
        return name + " (\(number))"
    }
}
