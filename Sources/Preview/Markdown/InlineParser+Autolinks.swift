/// GitHub's extended autolinks: `www.` addresses, `http://`, `https://` and `ftp://` URLs and
/// bare email addresses become links without angle brackets.
extension InlineParser {
    /// Whether `byte` at the current position may start an extended autolink: `w`, `h` or `f`
    /// at the start of the text or after whitespace or `*`, `_`, `~`, `(`.
    func isAutolinkTrigger(_ byte: UInt8) -> Bool {
        guard byte == UInt8(ascii: "w") || byte == UInt8(ascii: "h") || byte == UInt8(ascii: "f") else { return false }
        return true
    }

    /// Links the `www.` address or URL at the current position and returns its length, or nil.
    func extendedAutolink() -> Int? {
        if position > 0 {
            let previous = subject[position - 1]
            guard previous.isMarkdownWhitespace || previous == UInt8(ascii: "*") || previous == UInt8(ascii: "_")
                || previous == UInt8(ascii: "~") || previous == UInt8(ascii: "(")
            else { return nil }
        }
        let domainStart: Int
        var prefix: [UInt8] = []
        if RawHTMLSyntax.hasPrefix(subject, at: position, "www.") {
            domainStart = position
            prefix = Array("http://".utf8)
        } else if RawHTMLSyntax.hasPrefix(subject, at: position, "http://") {
            domainStart = position + 7
        } else if RawHTMLSyntax.hasPrefix(subject, at: position, "https://") {
            domainStart = position + 8
        } else if RawHTMLSyntax.hasPrefix(subject, at: position, "ftp://") {
            domainStart = position + 6
        } else {
            return nil
        }
        guard let domainEnd = validDomainEnd(from: domainStart, requiresPeriod: prefix.isEmpty == false) else {
            return nil
        }
        var stop = domainEnd
        while stop < end, !subject[stop].isMarkdownWhitespace, subject[stop] != UInt8(ascii: "<") { stop += 1 }
        stop = trimmedLinkEnd(from: position, to: stop)
        guard stop > domainStart else { return nil }
        let text = Array(subject[position..<stop])
        appendLink(destination: prefix + text, text: text)
        return stop - position
    }

    /// The end of a valid domain at `start`: segments of letters, digits, `_` and `-` separated
    /// by periods, with no underscore in the last two segments.
    private func validDomainEnd(from start: Int, requiresPeriod: Bool) -> Int? {
        var index = start
        var periods = 0
        var underscoreInLast = false
        var underscoreInPrevious = false
        var segmentLength = 0
        while index < end {
            let byte = subject[index]
            if byte == UInt8(ascii: ".") {
                if index + 1 >= end || !(subject[index + 1].isASCIIAlphanumeric || subject[index + 1] >= 0x80
                    || subject[index + 1] == UInt8(ascii: "_") || subject[index + 1] == UInt8(ascii: "-"))
                {
                    break
                }
                periods += 1
                underscoreInPrevious = underscoreInLast
                underscoreInLast = false
                segmentLength = 0
            } else if byte == UInt8(ascii: "_") {
                underscoreInLast = true
                segmentLength += 1
            } else if byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte >= 0x80 {
                segmentLength += 1
            } else {
                break
            }
            index += 1
        }
        guard index > start, !underscoreInLast, !underscoreInPrevious else { return nil }
        if requiresPeriod, periods == 0 { return nil }
        return index
    }

    /// Where a bare link really ends: trailing punctuation, an unbalanced `)` and a trailing
    /// entity-like `&name;` are left out.
    private func trimmedLinkEnd(from start: Int, to stop: Int) -> Int {
        var stop = stop
        while stop > start {
            let last = subject[stop - 1]
            switch last {
            case UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                stop -= 1
                continue
            case UInt8(ascii: ")"):
                var opening = 0
                var closing = 0
                for byte in subject[start..<stop] {
                    if byte == UInt8(ascii: "(") { opening += 1 } else if byte == UInt8(ascii: ")") { closing += 1 }
                }
                if closing > opening {
                    stop -= 1
                    continue
                }
            case UInt8(ascii: ";"):
                var index = stop - 2
                while index > start, subject[index].isASCIIAlphanumeric { index -= 1 }
                if index >= start, index < stop - 2, subject[index] == UInt8(ascii: "&") {
                    stop = index
                    continue
                }
            default:
                break
            }
            break
        }
        return stop
    }

    /// Turns bare email addresses in the text of `block` (outside links) into `mailto:` links.
    func linkEmailAddresses(in block: Int) {
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
    private func splitEmailAddresses(in node: Int) -> Int {
        let text = tree.nodes[node].content
        var current = node
        var searchFrom = 0
        var consumed = 0
        while let at = text[searchFrom...].firstIndex(of: UInt8(ascii: "@")) {
            var start = at
            while start > consumed, Self.isEmailLocal(text[start - 1]) { start -= 1 }
            var stop = at + 1
            var periods = 0
            while stop < text.count {
                let byte = text[stop]
                if byte == UInt8(ascii: ".") {
                    guard stop + 1 < text.count, text[stop + 1].isASCIIAlphanumeric || text[stop + 1] == UInt8(ascii: "-")
                        || text[stop + 1] == UInt8(ascii: "_")
                    else { break }
                    periods += 1
                } else if !(byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")) {
                    break
                }
                stop += 1
            }
            searchFrom = at + 1
            guard start < at, stop > at + 1, periods > 0 else { continue }
            let lastByte = text[stop - 1]
            guard lastByte != UInt8(ascii: "-"), lastByte != UInt8(ascii: "_") else { continue }
            // The text before, the link, and the rest after.
            let address = Array(text[start..<stop])
            tree.nodes[current].content = Array(text[consumed..<start])
            var link = MarkdownTree.Node(kind: .link)
            link.destination = Array("mailto:".utf8) + address
            link.isOpen = false
            let linkIndex = tree.insert(link, after: current)
            var linkText = MarkdownTree.Node(kind: .text)
            linkText.content = address
            linkText.isOpen = false
            tree.append(linkText, to: linkIndex)
            var rest = MarkdownTree.Node(kind: .text)
            rest.content = Array(text[stop...])
            rest.isOpen = false
            current = tree.insert(rest, after: linkIndex)
            consumed = stop
            searchFrom = stop
        }
        return current
    }

    private static func isEmailLocal(_ byte: UInt8) -> Bool {
        byte.isASCIIAlphanumeric || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "+")
    }
}
