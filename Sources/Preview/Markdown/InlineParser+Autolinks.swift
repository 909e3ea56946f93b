/// GitHub's extended autolinks: `www.` addresses, `http://`, `https://` and `ftp://` URLs and
/// bare email addresses become links without angle brackets.
extension InlineParser {
    /// Whether the byte at `index` may start an extended autolink: the `w` of `www.`, or the
    /// `:` of `://` (the scheme before it is taken back from the text already read).
    mutating func isAutolinkTrigger(at index: Int) -> Bool {
        switch subject[index] {
        case UInt8(ascii: "w"):
            return index + 3 < end && subject[index + 1] == UInt8(ascii: "w")
                && subject[index + 2] == UInt8(ascii: "w")
                && subject[index + 3] == UInt8(ascii: ".")
        case UInt8(ascii: ":"):
            return index + 2 < end && subject[index + 1] == UInt8(ascii: "/")
                && subject[index + 2] == UInt8(ascii: "/")
        default:
            return false
        }
    }

    /// Whether an open bracket (of a link or an image, even one a link inside has made
    /// inactive) holds the current position: GitHub makes no bare links there.
    var isInBracket: Bool { !brackets.isEmpty }

    /// Links the `www.` address at the current position; returns its length, or nil.
    mutating func wwwAutolink() -> Int? {
        if position > 0 {
            let previous = subject[position - 1]
            guard
                previous.isMarkdownWhitespace || previous == UInt8(ascii: "*")
                    || previous == UInt8(ascii: "_")
                    || previous == UInt8(ascii: "~") || previous == UInt8(ascii: "(")
            else { return nil }
        }
        guard let domain = domainLength(from: position, allowsShort: false), domain > 0 else { return nil }
        var stop = position + domain
        while stop < end, !subject[stop].isMarkdownWhitespace { stop += 1 }
        let length = trimmedLinkLength(from: position, length: stop - position)
        guard length > 0 else { return nil }
        let text = Array(subject[position..<(position + length)])
        appendLink(destination: Array("http://".utf8) + text, text: text)
        return length
    }

    /// Links the `http://`, `https://` or `ftp://` URL whose `:` is at the current position,
    /// taking its scheme back from the text before; returns the length from the `:`, or nil.
    mutating func schemeAutolink() -> Int? {
        let last = tree.nodes[block].lastChild
        guard last >= 0, tree.nodes[last].kind == .text else { return nil }
        let content = tree.nodes[last].content
        var rewind = 0
        while rewind < content.count, content[content.count - 1 - rewind].isASCIILetter { rewind += 1 }
        let scheme = content[(content.count - rewind)...].map(\.lowercasedASCII)
        guard scheme == Array("http".utf8) || scheme == Array("https".utf8) || scheme == Array("ftp".utf8)
        else {
            return nil
        }
        let hostStart = position + 3
        guard hostStart < end, Self.isHostCharacter(subject, at: hostStart, end: end) else { return nil }
        guard let domain = domainLength(from: hostStart, allowsShort: true), domain > 0 else { return nil }
        var stop = hostStart + domain
        while stop < end, !subject[stop].isMarkdownWhitespace { stop += 1 }
        let length = trimmedLinkLength(from: position, length: stop - position)
        guard length > 0 else { return nil }
        tree.nodes[last].content.removeLast(rewind)
        let text = Array(content[(content.count - rewind)...]) + subject[position..<(position + length)]
        appendLink(destination: text, text: text)
        return length
    }

    /// A scalar that may be part of a host name: neither whitespace nor punctuation (a byte in
    /// the middle of a scalar is not one, as GitHub reads it).
    static func isHostCharacter(_ bytes: [UInt8], at index: Int, end: Int) -> Bool {
        let byte = bytes[index]
        if byte < 0x80 { return !byte.isMarkdownWhitespace && !byte.isASCIIPunctuation && byte > 0x20 }
        guard byte & 0xC0 == 0xC0, let scalar = MarkdownScalars.scalar(at: index, in: bytes, end: end) else {
            return false
        }
        if scalar.properties.generalCategory == .spaceSeparator { return false }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return false
        default:
            return true
        }
    }

    /// The length of the domain at `start` (its first character taken as is), or nil when an
    /// underscore sits in its last two segments or, unless `allowsShort`, it has no period.
    private mutating func domainLength(from start: Int, allowsShort: Bool) -> Int? {
        let size = end - start
        var index = 1
        var periods = 0
        var underscoresBefore = 0
        var underscores = 0
        while index < size - 1 {
            let byte = subject[start + index]
            if byte == UInt8(ascii: "_") {
                underscores += 1
            } else if byte == UInt8(ascii: ".") {
                underscoresBefore = underscores
                underscores = 0
                periods += 1
            } else if !Self.isHostCharacter(subject, at: start + index, end: end), byte != UInt8(ascii: "-") {
                break
            }
            index += 1
        }
        if underscoresBefore > 0 || underscores > 0 { return nil }
        if !allowsShort, periods == 0 { return nil }
        return index
    }

    /// How much of the `length` bytes at `start` a bare link keeps: up to a `<`, then without
    /// trailing punctuation, an unbalanced `)` or a trailing entity-like `&name;`.
    mutating func trimmedLinkLength(from start: Int, length: Int) -> Int {
        var linkEnd = length
        if let angle = subject[start..<(start + length)].firstIndex(of: UInt8(ascii: "<")) {
            linkEnd = angle - start
        }
        var opening = 0
        var closing = 0
        var counted = false
        while linkEnd > 0 {
            let last = subject[start + linkEnd - 1]
            switch last {
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","),
                UInt8(ascii: ":"),
                UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"),
                UInt8(ascii: "\""):
                linkEnd -= 1
            case UInt8(ascii: ";"):
                var newEnd = linkEnd - 2
                while newEnd > 0, subject[start + newEnd].isASCIILetter { newEnd -= 1 }
                if newEnd < linkEnd - 2, newEnd >= 0, subject[start + newEnd] == UInt8(ascii: "&") {
                    linkEnd = newEnd
                } else {
                    linkEnd -= 1
                }
            case UInt8(ascii: ")"):
                if !counted {
                    for byte in subject[start..<(start + linkEnd)] {
                        if byte == UInt8(ascii: "(") {
                            opening += 1
                        } else if byte == UInt8(ascii: ")") {
                            closing += 1
                        }
                    }
                    counted = true
                }
                guard closing > opening else { return linkEnd }
                closing -= 1
                linkEnd -= 1
            default:
                return linkEnd
            }
        }
        return linkEnd
    }

    /// Turns bare email addresses in the text of `block` (outside links) into `mailto:` links.
    mutating func linkEmailAddresses(in block: Int) {
        var stack = [block]
        while let parent = stack.popLast() {
            var child = tree.nodes[parent].firstChild
            while child >= 0 {
                let kind = tree.nodes[child].kind
                if kind == .text {
                    // Adjacent text (split at delimiters that matched nothing) is one run.
                    while tree.nodes[child].next >= 0, tree.nodes[tree.nodes[child].next].kind == .text {
                        let next = tree.nodes[child].next
                        tree.nodes[child].content.append(contentsOf: tree.nodes[next].content)
                        tree.unlink(next)
                    }
                    if tree.nodes[child].content.contains(UInt8(ascii: "@")) {
                        child = splitEmailAddresses(in: child)
                    }
                } else if kind != .link, kind != .image, tree.nodes[child].firstChild >= 0 {
                    stack.append(child)
                }
                child = tree.nodes[child].next
            }
        }
    }

    /// Splits the text node `node` around the email addresses in it; returns the last node made.
    private mutating func splitEmailAddresses(in node: Int) -> Int {
        let text = tree.nodes[node].content
        var current = node
        var consumed = 0
        var searchFrom = 0
        while let at = text[searchFrom...].firstIndex(of: UInt8(ascii: "@")) {
            searchFrom = at + 1
            var start = at
            var slash = false
            while start > consumed {
                let byte = text[start - 1]
                if byte.isASCIIAlphanumeric || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                {
                    start -= 1
                    continue
                }
                slash = byte == UInt8(ascii: "/")
                break
            }
            guard start < at, !slash else { continue }
            var linkEnd = 0
            var ats = 0
            var periods = 0
            let size = text.count - at
            while linkEnd < size {
                let byte = text[at + linkEnd]
                if byte.isASCIIAlphanumeric {
                } else if byte == UInt8(ascii: "@") {
                    ats += 1
                } else if byte == UInt8(ascii: "."), linkEnd < size - 1,
                    text[at + linkEnd + 1].isASCIIAlphanumeric
                {
                    periods += 1
                } else if byte != UInt8(ascii: "-"), byte != UInt8(ascii: "_") {
                    break
                }
                linkEnd += 1
            }
            guard linkEnd >= 2, ats == 1, periods > 0,
                text[at + linkEnd - 1].isASCIILetter || text[at + linkEnd - 1] == UInt8(ascii: ".")
            else { continue }
            linkEnd = Self.trimmedLength(text, from: at, length: linkEnd)
            guard linkEnd > 0 else { continue }
            let stop = at + linkEnd
            // A `mailto:` written before the address belongs to the link, as on GitHub.
            var hasScheme = false
            let scheme = Array("mailto:".utf8)
            if start - consumed >= scheme.count,
                text[(start - scheme.count)..<start].map(\.lowercasedASCII).elementsEqual(scheme)
            {
                start -= scheme.count
                hasScheme = true
            }
            let address = Array(text[start..<stop])
            tree.nodes[current].content = Array(text[consumed..<start])
            let linkIndex = tree.insert(
                .closedLink(to: hasScheme ? address : scheme + address), after: current)
            tree.append(.closedText(address), to: linkIndex)
            current = tree.insert(.closedText(Array(text[stop...])), after: linkIndex)
            consumed = stop
            searchFrom = stop
        }
        return current
    }

    /// `trimmedLinkLength` on another buffer (an email address's text).
    private static func trimmedLength(_ text: [UInt8], from start: Int, length: Int) -> Int {
        var linkEnd = length
        while linkEnd > 0 {
            let last = text[start + linkEnd - 1]
            if Set("?!.,:*_~'\"".utf8).contains(last) {
                linkEnd -= 1
            } else {
                return linkEnd
            }
        }
        return linkEnd
    }
}
