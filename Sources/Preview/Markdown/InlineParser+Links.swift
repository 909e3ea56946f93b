/// Links, images and footnote references: each `]` looks back to the nearest `[` or `![` and
/// tries an inline destination, then a reference (full, collapsed, shortcut).
extension InlineParser {
    mutating func pushBracket(node: Int, isImage: Bool, textStart: Int) {
        brackets.append(
            Bracket(
                node: node, isImage: isImage, textStart: textStart, delimiterBottom: delimiters.count - 1,
                linkGeneration: linkGeneration))
        if isImage { imageBrackets += 1 } else { activeLinkBrackets += 1 }
    }

    /// Takes the last bracket off the stack.
    mutating func popBracket() {
        let bracket = brackets.removeLast()
        if bracket.isImage {
            imageBrackets -= 1
        } else if bracket.linkGeneration == linkGeneration {
            activeLinkBrackets -= 1
        }
    }

    mutating func handleCloseBracket() {
        let closePosition = position
        position += 1
        guard let opener = brackets.last else {
            appendText(subject[closePosition..<position])
            return
        }
        if !opener.isImage, opener.linkGeneration < linkGeneration {
            popBracket()
            appendText(subject[closePosition..<position])
            return
        }
        var destination: [UInt8] = []
        var title: [UInt8] = []
        var matched = false
        var after = position
        if let inline = inlineLinkTail(from: position) {
            destination = inline.destination
            title = inline.title
            after = inline.next
            matched = true
        }
        if !matched {
            let text = subject[opener.textStart..<closePosition]
            var label: ArraySlice<UInt8>? = nil
            if position < end, subject[position] == UInt8(ascii: "["),
                let labelEnd = LinkSyntax.labelEnd(subject, from: position, end: end)
            {
                if labelEnd > position + 1 {
                    label = subject[(position + 1)..<labelEnd]
                } else {
                    label = text
                }
                after = labelEnd + 1
            } else {
                label = text
                // A footnote reference: `[^label]` naming a footnote definition.
                if !opener.isImage, !footnotes.isEmpty, text.first == UInt8(ascii: "^"), text.count > 1,
                    references.isEmpty || references[LinkSyntax.normalizedLabel(text)] == nil,
                    let definition = footnotes[LinkSyntax.normalizedLabel(text.dropFirst())]
                {
                    makeFootnoteReference(opener: opener, definition: definition)
                    return
                }
            }
            if !references.isEmpty, let label, label.count <= 999,
                label.contains(where: { !$0.isMarkdownWhitespace }),
                let reference = references[LinkSyntax.normalizedLabel(label)]
            {
                destination = reference.destination
                title = reference.title
                matched = true
            }
        }
        guard matched else {
            popBracket()
            position = closePosition + 1
            appendText(subject[closePosition..<position])
            return
        }
        position = after
        var link = MarkdownTree.Node(kind: opener.isImage ? .image : .link)
        link.destination = destination
        link.title = title
        link.isOpen = false
        let linkIndex = tree.insert(link, after: opener.node)
        tree.moveSiblings(after: linkIndex, into: linkIndex)
        processEmphasis(above: opener.delimiterBottom)
        tree.unlink(opener.node)
        popBracket()
        if !opener.isImage {
            linkGeneration += 1
            activeLinkBrackets = 0
        }
    }

    private mutating func makeFootnoteReference(opener: Bracket, definition: Int) {
        var reference = MarkdownTree.Node(kind: .footnoteReference)
        let number: Int
        if let existing = footnoteNumbers[definition] {
            number = existing
        } else {
            footnoteOrder.append(definition)
            number = footnoteOrder.count
            footnoteNumbers[definition] = number
        }
        let count = (footnoteReferenceCounts[definition] ?? 0) + 1
        footnoteReferenceCounts[definition] = count
        reference.destination = tree.nodes[definition].destination
        reference.level = number
        reference.start = count
        reference.isOpen = false
        let index = tree.insert(reference, after: opener.node)
        // The label's own text is not shown: drop what was parsed inside the brackets.
        var child = tree.nodes[index].next
        while child >= 0 {
            let next = tree.nodes[child].next
            tree.unlink(child)
            child = next
        }
        while lastDelimiter > opener.delimiterBottom { removeDelimiter(lastDelimiter) }
        tree.unlink(opener.node)
        popBracket()
    }

    /// `(destination "title")` right after a `]`, resolved.
    private mutating func inlineLinkTail(
        from start: Int
    ) -> (destination: [UInt8], title: [UInt8], next: Int)? {
        guard start < end, subject[start] == UInt8(ascii: "(") else { return nil }
        var index = skipWhitespace(from: start + 1)
        guard index < end else { return nil }
        var destination: [UInt8] = []
        if subject[index] != UInt8(ascii: ")") {
            guard let parsed = LinkSyntax.destination(subject, from: index, end: end) else { return nil }
            destination = LinkSyntax.unescaped(parsed.value)
            index = parsed.next
        }
        var title: [UInt8] = []
        let beforeTitle = skipWhitespace(from: index)
        if beforeTitle > index, let parsed = LinkSyntax.title(subject, from: beforeTitle, end: end) {
            title = LinkSyntax.unescaped(parsed.value)
            index = skipWhitespace(from: parsed.next)
        } else {
            index = beforeTitle
        }
        guard index < end, subject[index] == UInt8(ascii: ")") else { return nil }
        return (destination, title, index + 1)
    }

    private mutating func skipWhitespace(from start: Int) -> Int {
        var index = start
        while index < end, subject[index].isMarkdownWhitespace { index += 1 }
        return index
    }
}
