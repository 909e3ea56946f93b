/// The pieces links are made of, shared by inline links and link reference definitions: labels,
/// destinations, titles, backslash escapes and entity references.
enum LinkSyntax {
    /// The index of the `]` closing the label whose `[` is at `start`, or nil (no closing bracket,
    /// an unescaped `[` inside, or more than 999 characters).
    static func labelEnd(_ bytes: [UInt8], from start: Int, end: Int) -> Int? {
        var index = start + 1
        while index < end, index - start <= 1000 {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1].isASCIIPunctuation {
                index += 2
                continue
            }
            if byte == UInt8(ascii: "[") { return nil }
            if byte == UInt8(ascii: "]") { return index - start - 1 <= 999 ? index : nil }
            index += 1
        }
        return nil
    }

    /// A link destination at `start`: its raw bytes (escapes not yet resolved) and where it ends.
    static func destination(
        _ bytes: [UInt8], from start: Int, end: Int
    ) -> (value: ArraySlice<UInt8>, next: Int)? {
        guard start < end else { return nil }
        if bytes[start] == UInt8(ascii: "<") {
            var index = start + 1
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1].isASCIIPunctuation {
                    index += 2
                    continue
                }
                if byte == .newline || byte == .carriageReturn || byte == UInt8(ascii: "<") { return nil }
                if byte == UInt8(ascii: ">") { return (bytes[(start + 1)..<index], index + 1) }
                index += 1
            }
            return nil
        }
        var depth = 0
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1].isASCIIPunctuation {
                index += 2
                continue
            }
            if byte <= 0x20 || byte == 0x7F { break }
            if byte == UInt8(ascii: "(") {
                depth += 1
                if depth > 32 { return nil }
            } else if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            index += 1
        }
        guard depth == 0, index > start else { return nil }
        return (bytes[start..<index], index)
    }

    /// A link title at `start` (`"…"`, `'…'` or `(…)`): its raw bytes and where it ends.
    static func title(_ bytes: [UInt8], from start: Int, end: Int) -> (value: ArraySlice<UInt8>, next: Int)? {
        guard start < end else { return nil }
        let open = bytes[start]
        let close: UInt8
        switch open {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): close = open
        case UInt8(ascii: "("): close = UInt8(ascii: ")")
        default: return nil
        }
        var index = start + 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1].isASCIIPunctuation {
                index += 2
                continue
            }
            if byte == close { return (bytes[(start + 1)..<index], index + 1) }
            if open == UInt8(ascii: "("), byte == UInt8(ascii: "(") { return nil }
            index += 1
        }
        return nil
    }

    /// `bytes` with backslash escapes and entity references resolved.
    static func unescaped(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "\\")) || bytes.contains(UInt8(ascii: "&")) else {
            return Array(bytes)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1].isASCIIPunctuation {
                output.append(bytes[index + 1])
                index += 2
            } else if byte == UInt8(ascii: "&"), let (decoded, length) = entity(bytes, at: index, end: end) {
                output.append(contentsOf: decoded)
                index += length
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The entity or numeric character reference at `index` (which holds `&`): its UTF-8 and length.
    static func entity<C: RandomAccessCollection<UInt8>>(
        _ bytes: C, at index: C.Index, end: C.Index
    ) -> ([UInt8], Int)?
    where C.Index == Int {
        var position = index + 1
        guard position < end else { return nil }
        if bytes[position] == UInt8(ascii: "#") {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            if position < end, bytes[position] | 0x20 == UInt8(ascii: "x") {
                position += 1
                while position < end, bytes[position].isASCIIHexDigit, digits < 7 {
                    let byte = bytes[position]
                    let digit = byte.isASCIIDigit ? byte - 0x30 : (byte | 0x20) - 0x61 + 10
                    value = value * 16 + UInt32(digit)
                    position += 1
                    digits += 1
                }
                guard digits >= 1, digits <= 6 else { return nil }
            } else {
                while position < end, bytes[position].isASCIIDigit, digits < 8 {
                    value = value * 10 + UInt32(bytes[position] - 0x30)
                    position += 1
                    digits += 1
                }
                guard digits >= 1, digits <= 7 else { return nil }
            }
            guard position < end, bytes[position] == UInt8(ascii: ";") else { return nil }
            let replacement: Unicode.Scalar = "\u{FFFD}"
            let scalar = value == 0 ? replacement : Unicode.Scalar(value) ?? replacement
            return (Array(String(Character(scalar)).utf8), position + 1 - index)
        }
        let nameStart = position
        while position < end, bytes[position].isASCIIAlphanumeric, position - nameStart <= 32 {
            position += 1
        }
        guard position > nameStart, position < end, bytes[position] == UInt8(ascii: ";") else { return nil }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        guard let scalars = HTMLEntities.scalars(named: Substring(name)) else { return nil }
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars)
        return (Array(string.utf8), position + 1 - index)
    }

    /// A label as references are matched: case-folded, inner whitespace collapsed, trimmed.
    static func normalizedLabel(_ label: ArraySlice<UInt8>) -> [UInt8] {
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(label.count)
        var pendingSpace = false
        var allASCII = true
        var index = label.startIndex
        while index < label.endIndex {
            let byte = label[index]
            index += 1
            if byte.isMarkdownWhitespace {
                pendingSpace = !collapsed.isEmpty
                continue
            }
            if pendingSpace {
                collapsed.append(.space)
                pendingSpace = false
            }
            if byte >= 0x80 { allASCII = false }
            collapsed.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        if allASCII { return collapsed }
        let string = String(decoding: collapsed, as: UTF8.self)
        return Array(string.lowercased().uppercased().lowercased().utf8)
    }

    static func normalizedLabel(_ label: [UInt8]) -> [UInt8] { normalizedLabel(label[...]) }
}
