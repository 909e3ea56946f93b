/// Opening new blocks: block quotes, headings, code, HTML blocks, rules, list items, tables and
/// footnote definitions, in the order the specification gives them precedence.
extension MarkdownParser {
    /// Opens the block the line starts at the current position inside `container`, if any, and
    /// returns it (the new container).
    mutating func openBlock(in container: Int, maybeLazy: Bool) -> Int? {
        let indented = indent >= 4
        let byte = peek(firstNonspace)
        let containerKind = tree.nodes[container].kind
        if !indented, byte == UInt8(ascii: ">") {
            advance(firstNonspace + 1 - offset, columns: false)
            if peek(offset).isSpaceOrTab { advance(1, columns: true) }
            return addChild(MarkdownTree.Node(kind: .blockQuote), to: container)
        }
        if !indented, byte == UInt8(ascii: "#"), let (level, length) = atxHeadingStart() {
            advance(firstNonspace + length - offset, columns: false)
            var heading = MarkdownTree.Node(kind: .heading)
            heading.level = level
            return addChild(heading, to: container)
        }
        if !indented, byte == UInt8(ascii: "`") || byte == UInt8(ascii: "~"), let length = fenceStart() {
            var code = MarkdownTree.Node(kind: .codeBlock)
            code.isFenced = true
            code.fenceCharacter = byte
            code.fenceLength = length
            code.fenceOffset = firstNonspace - offset
            advance(firstNonspace + length - offset, columns: false)
            return addChild(code, to: container)
        }
        if !indented, byte == UInt8(ascii: "<"),
            let type = HTMLBlockStart.type(of: line, at: firstNonspace),
            type < 7 || containerKind != .paragraph
        {
            var html = MarkdownTree.Node(kind: .htmlBlock)
            html.level = type
            return addChild(html, to: container)
        }
        if !indented, containerKind == .paragraph, byte == UInt8(ascii: "=") || byte == UInt8(ascii: "-"),
            let level = setextLevel()
        {
            if resolveReferenceDefinitions(in: container) {
                tree.nodes[container].kind = .heading
                tree.nodes[container].level = level
                tree.nodes[container].isSetext = true
                advance(line.count - 1 - offset, columns: false)
            }
            return nil
        }
        if !indented, byte == UInt8(ascii: "*") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_"),
            isThematicBreak()
        {
            let rule = addChild(MarkdownTree.Node(kind: .thematicBreak), to: container)
            advance(line.count - 1 - offset, columns: false)
            return rule
        }
        if !indented, byte == UInt8(ascii: "["), peek(firstNonspace + 1) == UInt8(ascii: "^"),
            let (label, length) = footnoteDefinitionStart()
        {
            advance(firstNonspace + length - offset, columns: false)
            var footnote = MarkdownTree.Node(kind: .footnoteDefinition)
            footnote.destination = label
            let index = addChild(footnote, to: container)
            let key = LinkSyntax.normalizedLabel(label)
            if footnotes[key] == nil { footnotes[key] = index }
            return index
        }
        if indent < 4, let item = listItemStart(interruptsParagraph: containerKind == .paragraph) {
            var list = container
            let node = tree.nodes[container]
            if node.kind != .list || node.isOrdered != item.isOrdered
                || node.bulletCharacter != item.bulletCharacter
                || node.delimiter != item.delimiter
            {
                var newList = item
                newList.kind = .list
                list = addChild(newList, to: container)
            }
            return addChild(item, to: list)
        }
        if indented, !maybeLazy, !blank {
            advance(4, columns: true)
            return addChild(MarkdownTree.Node(kind: .codeBlock), to: container)
        }
        if !indented, containerKind == .paragraph, let table = openTable(after: container) {
            return table
        }
        if containerKind == .item, tree.nodes[container].firstChild < 0, tree.nodes[container].task < 0,
            tree.nodes[container].startLine == lineNumber, let checked = taskMarker()
        {
            // A task list item: `[ ]`, `[x]` or `[X]` and whitespace first in the item. What
            // follows on the line is its text (no further block starts, as GitHub has it).
            tree.nodes[container].task = checked ? 1 : 0
            advance(firstNonspace + 3 - offset, columns: false)
            return nil
        }
        return nil
    }

    /// Whether the line is a task item's (`- [ ] `, `1. [x] `: one list marker from the line's
    /// start, as GitHub requires, so not inside a quote or a second marker on the same line) and
    /// the box is at the current position; nil when not, else whether it is checked (GitHub counts
    /// an `[x]` anywhere on the line).
    private mutating func taskMarker() -> Bool? {
        guard peek(firstNonspace) == UInt8(ascii: "["), peek(firstNonspace + 2) == UInt8(ascii: "]"),
            peek(firstNonspace + 3).isSpaceOrTab
        else { return nil }
        let box = peek(firstNonspace + 1)
        guard box == .space || box == UInt8(ascii: "x") || box == UInt8(ascii: "X") else { return nil }
        var index = 0
        while peek(index).isSpaceOrTab { index += 1 }
        let marker = peek(index)
        if marker == UInt8(ascii: "-") || marker == UInt8(ascii: "+") || marker == UInt8(ascii: "*") {
            index += 1
        } else if marker.isASCIIDigit {
            while peek(index).isASCIIDigit { index += 1 }
            index += 1
        } else {
            return nil
        }
        guard peek(index).isSpaceOrTab else { return nil }
        while peek(index).isSpaceOrTab { index += 1 }
        guard index == firstNonspace else { return nil }
        for position in 0..<max(line.count - 2, 0)
        where line[position] == UInt8(ascii: "[") && line[position + 2] == UInt8(ascii: "]")
            && (line[position + 1] == UInt8(ascii: "x") || line[position + 1] == UInt8(ascii: "X"))
        {
            return true
        }
        return false
    }

    // MARK: Scanners

    private mutating func atxHeadingStart() -> (level: Int, length: Int)? {
        var index = firstNonspace
        while peek(index) == UInt8(ascii: "#") { index += 1 }
        let level = index - firstNonspace
        guard level <= 6 else { return nil }
        let after = peek(index)
        guard after.isSpaceOrTab || after == .newline || after == 0 else { return nil }
        while peek(index).isSpaceOrTab { index += 1 }
        return (level, index - firstNonspace)
    }

    private mutating func fenceStart() -> Int? {
        let character = line[firstNonspace]
        var index = firstNonspace
        while peek(index) == character { index += 1 }
        let length = index - firstNonspace
        guard length >= 3 else { return nil }
        if character == UInt8(ascii: "`") {
            while index < line.count {
                if line[index] == UInt8(ascii: "`") { return nil }
                index += 1
            }
        }
        return length
    }

    private mutating func setextLevel() -> Int? {
        let character = line[firstNonspace]
        var index = firstNonspace
        while peek(index) == character { index += 1 }
        while peek(index).isSpaceOrTab { index += 1 }
        guard index >= line.count - 1 else { return nil }
        return character == UInt8(ascii: "=") ? 1 : 2
    }

    /// Whether the rest of the line is a thematic break. A failed scan is remembered for the
    /// line, so that `- - - … a` nested 10,000 deep does not scan the line 10,000 times.
    private mutating func isThematicBreak() -> Bool {
        let character = line[firstNonspace]
        if noThematicBreak.line == lineNumber, noThematicBreak.character == character,
            firstNonspace < noThematicBreak.before
        {
            return false
        }
        var count = 0
        var index = firstNonspace
        while index < line.count - 1 {
            let byte = line[index]
            if byte == character {
                count += 1
            } else if !byte.isSpaceOrTab {
                noThematicBreak = (lineNumber, character, index)
                return false
            }
            index += 1
        }
        if count < 3 { noThematicBreak = (lineNumber, character, line.count) }
        return count >= 3
    }

    private mutating func footnoteDefinitionStart() -> (label: [UInt8], length: Int)? {
        var index = firstNonspace + 2
        let labelStart = index
        while index < line.count - 1 {
            let byte = line[index]
            if byte == UInt8(ascii: "]") { break }
            if byte.isMarkdownWhitespace || byte == UInt8(ascii: "[") { return nil }
            if byte == UInt8(ascii: "\\") { index += 1 }
            index += 1
        }
        guard index > labelStart, peek(index) == UInt8(ascii: "]"), peek(index + 1) == UInt8(ascii: ":")
        else {
            return nil
        }
        let label = Array(line[labelStart..<index])
        index += 2
        while peek(index).isSpaceOrTab { index += 1 }
        return (label, index - firstNonspace)
    }

    /// A list item's marker at the current position: advances past the marker and its padding
    /// and returns the item (with the list's fields filled in), or nil.
    private mutating func listItemStart(interruptsParagraph: Bool) -> MarkdownTree.Node? {
        var item = MarkdownTree.Node(kind: .item)
        var index = firstNonspace
        let byte = peek(index)
        if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            item.bulletCharacter = byte
            index += 1
        } else if byte.isASCIIDigit {
            var number = 0
            var digits = 0
            while peek(index).isASCIIDigit, digits < 10 {
                number = number * 10 + Int(peek(index) - 0x30)
                index += 1
                digits += 1
            }
            let delimiter = peek(index)
            guard digits <= 9, delimiter == UInt8(ascii: ".") || delimiter == UInt8(ascii: ")") else {
                return nil
            }
            guard !interruptsParagraph || number == 1 else { return nil }
            item.isOrdered = true
            item.start = number
            item.delimiter = delimiter
            index += 1
        } else {
            return nil
        }
        let after = peek(index)
        guard after.isSpaceOrTab || after == .newline else { return nil }
        if interruptsParagraph {
            var rest = index
            while peek(rest).isSpaceOrTab { rest += 1 }
            if peek(rest) == .newline { return nil }
        }
        let markerLength = index - firstNonspace
        advance(firstNonspace + markerLength - offset, columns: false)
        // Padding: the spaces after the marker, unless there are five or more (then one, and the
        // rest is indented code) or the line ends.
        let savedOffset = offset
        let savedColumn = column
        let savedPartial = partiallyConsumedTab
        var spaces = 0
        while spaces <= 5, peek(offset).isSpaceOrTab {
            advance(1, columns: true)
            spaces = column - savedColumn
        }
        let restIsBlank = peek(offset) == .newline
        if spaces >= 5 || spaces < 1 || restIsBlank {
            offset = savedOffset
            column = savedColumn
            partiallyConsumedTab = savedPartial
            item.padding = markerLength + 1
            if peek(offset).isSpaceOrTab { advance(1, columns: true) }
        } else {
            item.padding = markerLength + spaces
        }
        item.markerOffset = indent
        return item
    }
}
