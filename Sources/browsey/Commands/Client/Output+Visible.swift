extension Output {
    /// `text` with every character that would steer a terminal rather than be shown made
    /// visible: C0 controls but the tab as `^[`, `^M` and the like (as `cat -v` shows them), DEL
    /// as `^?`, C1 controls and the characters that reorder or break lines (bidirectional
    /// overrides and isolates, the line and paragraph separators) as `<U+202E>`.
    ///
    /// What a server sends is written by whoever put files on it: a file name, a line of a text
    /// file, a commit message or a discovered server's name could otherwise set the terminal's
    /// title, write to its clipboard, move the cursor over earlier output, or show a name that
    /// reads backwards (`invoice‮fdp.exe`). Client commands pass what they print of it through
    /// here; `--json` output is JSON, where such characters are already escaped.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isSteering) else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isSteering(scalar) else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x00..<0x20: shown += "^" + String(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F: shown += "^?"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            }
        }
        return shown
    }

    /// `text` printed as a line, made ``visible(_:)`` first.
    static func line(_ text: String) {
        print(visible(text))
    }

    /// Whether `scalar` acts on a terminal or on the order of what it shows.
    private static func isSteering(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x00..<0x20, 0x7F, 0x80..<0xA0: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
