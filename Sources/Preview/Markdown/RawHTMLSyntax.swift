/// Raw HTML as CommonMark recognises it: the seven kinds of HTML block start (and how each
/// ends), and inline tags, comments, processing instructions, declarations and CDATA. The
/// renderer shows all of it as text; recognising it keeps the document's structure the same as
/// every other renderer's.
enum RawHTMLSyntax {
    /// Remembers searches that failed, so that many unclosed constructs stay linear.
    struct Memo {
        /// For each terminator searched for, the position from which it is known to be absent.
        var absentFrom: [Int: Int] = [:]

        mutating func find(
            _ terminator: [UInt8], in bytes: [UInt8], from start: Int, end: Int, key: Int
        ) -> Int? {
            if let absent = absentFrom[key], start >= absent { return nil }
            var index = start
            let first = terminator[0]
            while index + terminator.count <= end {
                if bytes[index] == first {
                    var matched = true
                    for offset in 1..<terminator.count where bytes[index + offset] != terminator[offset] {
                        matched = false
                        break
                    }
                    if matched { return index }
                }
                index += 1
            }
            absentFrom[key] = min(absentFrom[key] ?? start, start)
            return nil
        }
    }

    static let blockTagNames: Set<[UInt8]> = Set(
        [
            "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center",
            "col",
            "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption",
            "figure",
            "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
            "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol",
            "optgroup", "option", "p", "param", "search", "section", "summary", "table", "tbody", "td",
            "tfoot",
            "th", "thead", "title", "tr", "track", "ul",
        ].map { Array($0.utf8) })

    static let rawTextTagNames: [[UInt8]] = ["pre", "script", "style", "textarea"].map { Array($0.utf8) }

    /// The length of the tag name at `index` (a letter, then letters, digits and hyphens), or 0.
    static func tagNameLength(_ bytes: [UInt8], at index: Int, end: Int) -> Int {
        guard index < end, bytes[index].isASCIILetter else { return 0 }
        var stop = index + 1
        while stop < end, bytes[stop].isASCIIAlphanumeric || bytes[stop] == UInt8(ascii: "-") { stop += 1 }
        return stop - index
    }

    static func lowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] { bytes.map(\.lowercasedASCII) }

    static func hasPrefix(
        _ bytes: [UInt8], at index: Int, _ prefix: String, caseInsensitive: Bool = false
    ) -> Bool {
        var position = index
        for byte in prefix.utf8 {
            guard position < bytes.count else { return false }
            let actual = caseInsensitive ? bytes[position].lowercasedASCII : bytes[position]
            guard actual == byte else { return false }
            position += 1
        }
        return true
    }

    /// The length of the inline raw HTML at `index` (which holds `<`), or nil.
    static func inlineLength(_ bytes: [UInt8], at index: Int, end: Int, memo: inout Memo) -> Int? {
        let next = index + 1
        guard next < end else { return nil }
        let byte = bytes[next]
        if byte == UInt8(ascii: "!") {
            if hasPrefix(bytes, at: index, "<!-->") { return 5 }
            if hasPrefix(bytes, at: index, "<!--->") { return 6 }
            if hasPrefix(bytes, at: index, "<!--") {
                guard let close = memo.find(Array("-->".utf8), in: bytes, from: index + 4, end: end, key: 1)
                else {
                    return nil
                }
                return close + 3 - index
            }
            if hasPrefix(bytes, at: index, "<![CDATA[") {
                guard let close = memo.find(Array("]]>".utf8), in: bytes, from: index + 9, end: end, key: 2)
                else {
                    return nil
                }
                return close + 3 - index
            }
            if next + 1 < end, bytes[next + 1].isASCIILetter {
                guard let close = memo.find([UInt8(ascii: ">")], in: bytes, from: index + 2, end: end, key: 3)
                else {
                    return nil
                }
                return close + 1 - index
            }
            return nil
        }
        if byte == UInt8(ascii: "?") {
            guard let close = memo.find(Array("?>".utf8), in: bytes, from: index + 2, end: end, key: 4) else {
                return nil
            }
            return close + 2 - index
        }
        if byte == UInt8(ascii: "/") {
            let nameLength = tagNameLength(bytes, at: next + 1, end: end)
            guard nameLength > 0 else { return nil }
            var position = next + 1 + nameLength
            while position < end, bytes[position].isMarkdownWhitespace { position += 1 }
            guard position < end, bytes[position] == UInt8(ascii: ">") else { return nil }
            return position + 1 - index
        }
        guard let length = openTagLength(bytes, at: index, end: end, memo: &memo) else { return nil }
        return length
    }

    /// The length of the open tag at `index` (`<name attr="value" ... />`), or nil.
    static func openTagLength(_ bytes: [UInt8], at index: Int, end: Int, memo: inout Memo) -> Int? {
        let nameLength = tagNameLength(bytes, at: index + 1, end: end)
        guard nameLength > 0 else { return nil }
        var position = index + 1 + nameLength
        while true {
            var afterSpace = position
            while afterSpace < end, bytes[afterSpace].isMarkdownWhitespace { afterSpace += 1 }
            guard afterSpace < end else { return nil }
            let byte = bytes[afterSpace]
            if byte == UInt8(ascii: ">") { return afterSpace + 1 - index }
            if byte == UInt8(ascii: "/") {
                guard afterSpace + 1 < end, bytes[afterSpace + 1] == UInt8(ascii: ">") else { return nil }
                return afterSpace + 2 - index
            }
            // An attribute needs whitespace before it.
            guard afterSpace > position else { return nil }
            guard byte.isASCIILetter || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") else {
                return nil
            }
            position = afterSpace + 1
            while position < end,
                bytes[position].isASCIIAlphanumeric || bytes[position] == UInt8(ascii: "_")
                    || bytes[position] == UInt8(ascii: ".") || bytes[position] == UInt8(ascii: ":")
                    || bytes[position] == UInt8(ascii: "-")
            {
                position += 1
            }
            // An optional value.
            var beforeEquals = position
            while beforeEquals < end, bytes[beforeEquals].isMarkdownWhitespace { beforeEquals += 1 }
            guard beforeEquals < end, bytes[beforeEquals] == UInt8(ascii: "=") else { continue }
            var valueStart = beforeEquals + 1
            while valueStart < end, bytes[valueStart].isMarkdownWhitespace { valueStart += 1 }
            guard valueStart < end else { return nil }
            let quote = bytes[valueStart]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                guard
                    let close = memo.find([quote], in: bytes, from: valueStart + 1, end: end, key: Int(quote))
                else {
                    return nil
                }
                position = close + 1
            } else {
                var stop = valueStart
                while stop < end {
                    let value = bytes[stop]
                    if value.isMarkdownWhitespace || value == UInt8(ascii: "\"") || value == UInt8(ascii: "'")
                        || value == UInt8(ascii: "=") || value == UInt8(ascii: "<")
                        || value == UInt8(ascii: ">")
                        || value == UInt8(ascii: "`")
                    {
                        break
                    }
                    stop += 1
                }
                guard stop > valueStart else { return nil }
                position = stop
            }
        }
    }
}

/// The seven ways an HTML block starts, and how each ends.
enum HTMLBlockStart {
    /// The type (1-7) of the HTML block starting at `index` of `line`, or nil.
    static func type(of line: [UInt8], at index: Int) -> Int? {
        let end = line.count - 1  // the line ends with a newline
        if RawHTMLSyntax.hasPrefix(line, at: index, "<!--") { return 2 }
        if RawHTMLSyntax.hasPrefix(line, at: index, "<?") { return 3 }
        if RawHTMLSyntax.hasPrefix(line, at: index, "<![CDATA[") { return 5 }
        if RawHTMLSyntax.hasPrefix(line, at: index, "<!"), index + 2 < end, line[index + 2].isASCIILetter {
            return 4
        }
        let closing = index + 1 < end && line[index + 1] == UInt8(ascii: "/")
        let nameStart = index + (closing ? 2 : 1)
        let nameLength = RawHTMLSyntax.tagNameLength(line, at: nameStart, end: end)
        guard nameLength > 0 else { return nil }
        let name = RawHTMLSyntax.lowercased(line[nameStart..<(nameStart + nameLength)])
        let after = nameStart + nameLength
        let next: UInt8 = after < end ? line[after] : .newline
        if !closing, RawHTMLSyntax.rawTextTagNames.contains(name),
            next.isMarkdownWhitespace || next == UInt8(ascii: ">")
        {
            return 1
        }
        if RawHTMLSyntax.blockTagNames.contains(name),
            next.isMarkdownWhitespace || next == UInt8(ascii: ">")
                || (next == UInt8(ascii: "/") && after + 1 < end && line[after + 1] == UInt8(ascii: ">"))
        {
            return 6
        }
        var memo = RawHTMLSyntax.Memo()
        let length: Int?
        if closing {
            length = RawHTMLSyntax.inlineLength(line, at: index, end: end, memo: &memo)
        } else if RawHTMLSyntax.rawTextTagNames.contains(name) {
            length = nil
        } else {
            length = RawHTMLSyntax.openTagLength(line, at: index, end: end, memo: &memo)
        }
        guard let length else { return nil }
        var rest = index + length
        while rest < end, line[rest].isSpaceOrTab { rest += 1 }
        return rest == end ? 7 : nil
    }

    /// Whether `line` ends an HTML block of `type` (types 6 and 7 end at a blank line instead).
    static func ends(type: Int, line: [UInt8], from start: Int) -> Bool {
        let terminators: [String]
        switch type {
        case 1: terminators = ["</script>", "</pre>", "</style>", "</textarea>"]
        case 2: terminators = ["-->"]
        case 3: terminators = ["?>"]
        case 4: terminators = [">"]
        case 5: terminators = ["]]>"]
        default: return false
        }
        for index in start..<line.count {
            for terminator in terminators
            where RawHTMLSyntax.hasPrefix(line, at: index, terminator, caseInsensitive: type == 1) {
                return true
            }
        }
        return false
    }
}
