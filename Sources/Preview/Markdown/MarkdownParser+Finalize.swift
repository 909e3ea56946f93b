/// Closing blocks: reference definitions taken off paragraphs, code blocks' info strings and
/// trailing blank lines, lists' tightness.
extension MarkdownParser {
    /// Closes `block` and returns its parent.
    @discardableResult
    mutating func finalize(_ block: Int) -> Int {
        let parent = tree.nodes[block].parent
        guard tree.nodes[block].isOpen else { return parent }
        tree.nodes[block].isOpen = false
        switch tree.nodes[block].kind {
        case .paragraph:
            // A paragraph cut short by a table keeps its lines as they are (GitHub does not
            // read definitions there).
            if !tree.nodes[block].keepsDefinitions, !resolveReferenceDefinitions(in: block) {
                tree.unlink(block)
            }
        case .codeBlock:
            finalizeCode(block)
        case .list:
            tree.nodes[block].isTight = !isLoose(block)
        default:
            break
        }
        return parent
    }

    private mutating func finalizeCode(_ block: Int) {
        var content = tree.nodes[block].content
        if tree.nodes[block].isFenced {
            let newline = content.firstIndex(of: .newline) ?? content.count
            var start = 0
            var end = newline
            while start < end, content[start].isMarkdownWhitespace { start += 1 }
            while end > start, content[end - 1].isMarkdownWhitespace { end -= 1 }
            tree.nodes[block].destination = LinkSyntax.unescaped(content[start..<end])
            content.removeSubrange(0..<min(newline + 1, content.count))
        } else {
            var last = content.count
            while last > 0, content[last - 1].isMarkdownWhitespace { last -= 1 }
            if last == 0 {
                content.removeAll()
            } else if let newline = content[last...].firstIndex(of: .newline) {
                content.removeSubrange((newline + 1)...)
            } else {
                content.append(.newline)
            }
        }
        tree.nodes[block].content = content
    }

    private mutating func isLoose(_ list: Int) -> Bool {
        var item = tree.nodes[list].firstChild
        while item >= 0 {
            let next = tree.nodes[item].next
            if tree.nodes[item].lastLineBlank, next >= 0 { return true }
            var child = tree.nodes[item].firstChild
            while child >= 0 {
                if endsWithBlankLine(child), next >= 0 || tree.nodes[child].next >= 0 { return true }
                child = tree.nodes[child].next
            }
            item = next
        }
        return false
    }

    /// Whether `node` (or, for a list or item, its last descendant list or item) ended with a
    /// blank line; remembered per node, so that deeply nested lists are checked once each.
    private mutating func endsWithBlankLine(_ node: Int) -> Bool {
        var chain: [Int] = []
        var current = node
        var result = false
        while current >= 0 {
            if let known = endsWithBlank[current] {
                result = known
                break
            }
            chain.append(current)
            if tree.nodes[current].lastLineBlank {
                result = true
                break
            }
            let kind = tree.nodes[current].kind
            guard kind == .list || kind == .item else { break }
            current = tree.nodes[current].lastChild
        }
        for visited in chain { endsWithBlank[visited] = result }
        return result
    }

    /// Takes the link reference definitions off the start of `paragraph`; returns whether any
    /// text is left.
    mutating func resolveReferenceDefinitions(in paragraph: Int) -> Bool {
        let content = tree.nodes[paragraph].content
        var start = 0
        while start < content.count, content[start] == UInt8(ascii: "["),
            let next = referenceDefinition(content, at: start)
        {
            start = next
        }
        if start > 0 { tree.nodes[paragraph].content.removeSubrange(0..<start) }
        return tree.nodes[paragraph].content.contains { !$0.isMarkdownWhitespace }
    }

    /// Parses the definition at `start` (a `[`), records it, and returns where the next line starts.
    private mutating func referenceDefinition(_ bytes: [UInt8], at start: Int) -> Int? {
        let end = bytes.count
        guard let labelEnd = LinkSyntax.labelEnd(bytes, from: start, end: end),
            labelEnd + 1 < end, bytes[labelEnd + 1] == UInt8(ascii: ":")
        else { return nil }
        let label = bytes[(start + 1)..<labelEnd]
        guard label.contains(where: { !$0.isMarkdownWhitespace }) else { return nil }
        var index = skipSpaceAndOneNewline(bytes, from: labelEnd + 2)
        guard let destination = LinkSyntax.destination(bytes, from: index, end: end) else { return nil }
        if destination.value.isEmpty, bytes[index] != UInt8(ascii: "<") { return nil }
        index = destination.next
        let afterDestination = index
        var title: ArraySlice<UInt8> = []
        var lineEnd = -1
        let beforeTitle = skipSpaceAndOneNewline(bytes, from: index)
        if beforeTitle > index, let parsed = LinkSyntax.title(bytes, from: beforeTitle, end: end) {
            var after = parsed.next
            while after < end, bytes[after].isSpaceOrTab { after += 1 }
            if after >= end || bytes[after] == .newline {
                title = parsed.value
                lineEnd = after
            }
        }
        if lineEnd < 0 {
            var after = afterDestination
            while after < end, bytes[after].isSpaceOrTab { after += 1 }
            guard after >= end || bytes[after] == .newline else { return nil }
            lineEnd = after
        }
        let key = LinkSyntax.normalizedLabel(label)
        if references[key] == nil {
            references[key] = (LinkSyntax.unescaped(destination.value), LinkSyntax.unescaped(title))
        }
        return min(lineEnd + 1, end)
    }

    private mutating func skipSpaceAndOneNewline(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index].isSpaceOrTab { index += 1 }
        if index < bytes.count, bytes[index] == .newline {
            index += 1
            while index < bytes.count, bytes[index].isSpaceOrTab { index += 1 }
        }
        return index
    }
}
