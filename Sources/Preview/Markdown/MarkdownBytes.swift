/// The character classes CommonMark's grammar is written in, on UTF-8 bytes.
extension UInt8 {
    static var newline: UInt8 { 0x0A }
    static var carriageReturn: UInt8 { 0x0D }
    static var space: UInt8 { 0x20 }
    static var tab: UInt8 { 0x09 }

    var isSpaceOrTab: Bool { self == .space || self == .tab }

    /// Space, tab, line feed, line tabulation, form feed or carriage return.
    var isMarkdownWhitespace: Bool { self == .space || (self >= 0x09 && self <= 0x0D) }

    var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }

    var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }

    var isASCIIAlphanumeric: Bool { isASCIIDigit || isASCIILetter }

    var isASCIIHexDigit: Bool { isASCIIDigit || ((self | 0x20) >= 0x61 && (self | 0x20) <= 0x66) }

    /// One of the ASCII punctuation characters a backslash can escape.
    var isASCIIPunctuation: Bool {
        (self >= 0x21 && self <= 0x2F) || (self >= 0x3A && self <= 0x40) || (self >= 0x5B && self <= 0x60)
            || (self >= 0x7B && self <= 0x7E)
    }

    var lowercasedASCII: UInt8 { isASCIILetter ? self | 0x20 : self }
}

/// Scalars around a delimiter run, for the flanking rules.
enum MarkdownScalars {
    /// The scalar that ends right before `index` in `bytes`, or nil at the start.
    static func scalar(before index: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard index > 0 else { return nil }
        var start = index - 1
        while start > 0, bytes[start] & 0xC0 == 0x80, index - start < 4 { start -= 1 }
        return decode(bytes, from: start, to: index)
    }

    /// The scalar that starts at `index` in `bytes`, or nil at the end.
    static func scalar(at index: Int, in bytes: [UInt8], end: Int) -> Unicode.Scalar? {
        guard index < end else { return nil }
        var stop = index + 1
        while stop < end, bytes[stop] & 0xC0 == 0x80, stop - index < 4 { stop += 1 }
        return decode(bytes, from: index, to: stop)
    }

    private static func decode(_ bytes: [UInt8], from start: Int, to end: Int) -> Unicode.Scalar? {
        var iterator = bytes[start..<end].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// Unicode whitespace as CommonMark defines it (Zs, tab, line feed, form feed, carriage return).
    static func isWhitespace(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        if scalar.value < 0x80 { return UInt8(scalar.value).isMarkdownWhitespace }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    /// Unicode punctuation as CommonMark 0.31 defines it (P and S categories).
    static func isPunctuation(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        if scalar.value < 0x80 { return UInt8(scalar.value).isASCIIPunctuation }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
            .modifierSymbol, .otherSymbol:
            return true
        default: return false
        }
    }
}
