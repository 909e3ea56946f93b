/// The block phase of CommonMark parsing, line by line as the specification's appendix describes:
/// each line first continues the open container blocks it can, then may open new blocks, then its
/// text goes to the deepest open block (or continues a paragraph lazily). Inline parsing follows
/// once every block is closed (`InlineParser`).
struct MarkdownParser {
    var tree = MarkdownTree()
    /// Link reference definitions by normalised label: the first definition wins.
    var references: [[UInt8]: (destination: [UInt8], title: [UInt8])] = [:]
    /// Footnote definitions by normalised label.
    var footnotes: [[UInt8]: Int] = [:]

    /// The deepest open block.
    var tip = MarkdownTree.root
    var line: [UInt8] = []
    var lineNumber = 0
    var offset = 0
    var column = 0
    var firstNonspace = 0
    var firstNonspaceColumn = 0
    var indent = 0
    var blank = false
    var partiallyConsumedTab = false
    var lastMatchedContainer = MarkdownTree.root
    /// Whether a closed list or item ended with a blank line (list tightness), once known.
    var endsWithBlank: [Int: Bool] = [:]
    /// On which line, for which character, before which position no thematic break starts.
    var noThematicBreak: (line: Int, character: UInt8, before: Int) = (0, 0, 0)

    /// Parses the blocks of `text`.
    init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.contains(0) {
            bytes = bytes.flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
        }
        var start = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == .newline || byte == .carriageReturn {
                processLine(bytes[start..<index])
                if byte == .carriageReturn, index + 1 < count, bytes[index + 1] == .newline { index += 1 }
                index += 1
                start = index
            } else {
                index += 1
            }
        }
        if start < count { processLine(bytes[start..<count]) }
        while tip != MarkdownTree.root { tip = finalize(tip) }
        finalize(MarkdownTree.root)
    }

    // MARK: Position within the line

    /// Finds the first non-space at or after the current position (kept while the position has
    /// not passed it, so that many nested containers do not scan the same spaces again).
    mutating func findFirstNonspace() {
        if firstNonspace <= offset {
            var index = offset
            var columns = column
            var charsToTab = 4 - (column % 4)
            while index < line.count {
                let byte = line[index]
                if byte == .space {
                    index += 1
                    columns += 1
                    charsToTab -= 1
                    if charsToTab == 0 { charsToTab = 4 }
                } else if byte == .tab {
                    index += 1
                    columns += charsToTab
                    charsToTab = 4
                } else {
                    break
                }
            }
            firstNonspace = index
            firstNonspaceColumn = columns
        }
        indent = firstNonspaceColumn - column
        blank = firstNonspace >= line.count || line[firstNonspace] == .newline
    }

    /// Moves `count` bytes (or, when `columns`, that many columns: a tab may be half consumed) on.
    mutating func advance(_ count: Int, columns: Bool) {
        var count = count
        while count > 0, offset < line.count {
            if line[offset] == .tab {
                let charsToTab = 4 - (column % 4)
                if columns {
                    partiallyConsumedTab = charsToTab > count
                    let advance = min(count, charsToTab)
                    column += advance
                    offset += partiallyConsumedTab ? 0 : 1
                    count -= advance
                } else {
                    partiallyConsumedTab = false
                    column += charsToTab
                    offset += 1
                    count -= 1
                }
            } else {
                partiallyConsumedTab = false
                offset += 1
                column += 1
                count -= 1
            }
        }
    }

    mutating func peek(_ index: Int) -> UInt8 { index < line.count ? line[index] : 0 }

    // MARK: One line

    private mutating func processLine(_ bytes: ArraySlice<UInt8>) {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: bytes)
        line.append(.newline)
        offset = 0
        column = 0
        firstNonspace = 0
        firstNonspaceColumn = 0
        blank = false
        partiallyConsumedTab = false
        lineNumber += 1

        var container = MarkdownTree.root
        // 1. Continue the open blocks this line can continue.
        while true {
            let last = tree.nodes[container].lastChild
            guard last >= 0, tree.nodes[last].isOpen else { break }
            container = last
            findFirstNonspace()
            switch continues(container) {
            case .matched: continue
            case .failed:
                container = tree.nodes[container].parent
            case .lineDone:
                return
            }
            break
        }
        lastMatchedContainer = container

        // 2. Open new blocks.
        var maybeLazy = tree.nodes[tip].kind == .paragraph
        while tree.nodes[container].kind != .codeBlock, tree.nodes[container].kind != .htmlBlock {
            findFirstNonspace()
            guard let opened = openBlock(in: container, maybeLazy: maybeLazy) else { break }
            container = opened
            let kind = tree.nodes[container].kind
            if kind == .paragraph || kind == .heading || kind == .codeBlock || kind == .table { break }
            maybeLazy = false
        }

        // 3. The rest of the line.
        findFirstNonspace()
        if blank, tree.nodes[container].lastChild >= 0 {
            tree.nodes[tree.nodes[container].lastChild].lastLineBlank = true
        }
        let node = tree.nodes[container]
        let lastLineBlank =
            blank && node.kind != .blockQuote && node.kind != .heading && node.kind != .thematicBreak
            && !(node.kind == .codeBlock && node.isFenced)
            && !(node.kind == .item && node.firstChild < 0 && node.startLine == lineNumber)
        tree.nodes[container].lastLineBlank = lastLineBlank
        var ancestor = tree.nodes[container].parent
        while ancestor >= 0 {
            tree.nodes[ancestor].lastLineBlank = false
            ancestor = tree.nodes[ancestor].parent
        }

        if tip != lastMatchedContainer, container == lastMatchedContainer, !blank,
            tree.nodes[tip].kind == .paragraph
        {
            addLine(to: tip)  // lazy continuation
            return
        }
        while tip != lastMatchedContainer, tip != MarkdownTree.root {
            tip = finalize(tip)
        }
        switch tree.nodes[container].kind {
        case .codeBlock:
            addLine(to: container)
        case .htmlBlock:
            addLine(to: container)
            if HTMLBlockStart.ends(type: tree.nodes[container].level, line: line, from: firstNonspace) {
                container = finalize(container)
            }
        case .paragraph, .heading:
            if !blank {
                if tree.nodes[container].kind == .heading, !tree.nodes[container].isSetext {
                    chopClosingHashes()
                }
                advance(firstNonspace - offset, columns: false)
                addLine(to: container)
            }
        case .table:
            if !blank { addTableRow(to: container) }
        default:
            if !blank {
                let paragraph = addChild(MarkdownTree.Node(kind: .paragraph), to: container)
                advance(firstNonspace - offset, columns: false)
                addLine(to: paragraph)
                container = paragraph
            }
        }
        tip = container
    }

    enum Continuation { case matched, failed, lineDone }

    private mutating func continues(_ container: Int) -> Continuation {
        let node = tree.nodes[container]
        switch node.kind {
        case .blockQuote:
            guard indent <= 3, peek(firstNonspace) == UInt8(ascii: ">") else { return .failed }
            advance(indent + 1, columns: true)
            if peek(offset).isSpaceOrTab { advance(1, columns: true) }
            return .matched
        case .item:
            if indent >= node.markerOffset + node.padding {
                advance(node.markerOffset + node.padding, columns: true)
                return .matched
            }
            if blank, node.firstChild >= 0 {
                advance(firstNonspace - offset, columns: false)
                return .matched
            }
            return .failed
        case .footnoteDefinition:
            return indentedContinuation()
        case .codeBlock:
            if !node.isFenced { return indentedContinuation() }
            if indent <= 3, peek(firstNonspace) == node.fenceCharacter {
                var end = firstNonspace
                while peek(end) == node.fenceCharacter { end += 1 }
                var rest = end
                while peek(rest).isSpaceOrTab { rest += 1 }
                if end - firstNonspace >= node.fenceLength, rest >= line.count - 1 {
                    tip = finalize(container)
                    return .lineDone
                }
            }
            var remaining = node.fenceOffset
            while remaining > 0, peek(offset).isSpaceOrTab {
                advance(1, columns: true)
                remaining -= 1
            }
            return .matched
        case .heading:
            return .failed
        case .htmlBlock:
            return blank && node.level >= 6 ? .failed : .matched
        case .paragraph:
            return blank ? .failed : .matched
        case .table:
            // A line of nothing but one pipe has no cells: it ends the table, as on GitHub.
            if blank { return .failed }
            var rest = firstNonspace
            if peek(rest) == UInt8(ascii: "|") { rest += 1 }
            while peek(rest).isSpaceOrTab { rest += 1 }
            return rest >= line.count - 1 ? .failed : .matched
        default:
            return .matched
        }
    }

    // MARK: Building

    /// Adds a child to `parent`, first closing the blocks that cannot hold it.
    @discardableResult
    mutating func addChild(_ node: MarkdownTree.Node, to parent: Int) -> Int {
        var parent = parent
        while !canContain(parent, node.kind) {
            parent = finalize(parent)
        }
        var node = node
        node.startLine = lineNumber
        return tree.append(node, to: parent)
    }

    /// How an indented code block and a footnote definition go on: a line indented by four
    /// columns (which are consumed), or a blank line.
    private mutating func indentedContinuation() -> Continuation {
        if indent >= 4 {
            advance(4, columns: true)
            return .matched
        }
        if blank {
            advance(firstNonspace - offset, columns: false)
            return .matched
        }
        return .failed
    }

    private mutating func canContain(_ parent: Int, _ kind: MarkdownTree.Kind) -> Bool {
        switch tree.nodes[parent].kind {
        case .document, .blockQuote, .item, .footnoteDefinition: kind != .item && kind != .tableRow
        case .list: kind == .item
        case .table: kind == .tableRow
        default: false
        }
    }

    /// Adds what is left of the line to `block`'s content.
    mutating func addLine(to block: Int) {
        if partiallyConsumedTab {
            offset += 1
            let charsToTab = 4 - (column % 4)
            tree.nodes[block].content.append(contentsOf: repeatElement(.space, count: charsToTab))
        }
        if offset < line.count {
            tree.nodes[block].content.append(contentsOf: line[offset...])
        }
    }

    private mutating func chopClosingHashes() {
        // The line ends with "\n"; drop trailing spaces, then a run of `#` preceded by a space.
        var end = line.count - 1
        while end > firstNonspace, line[end - 1].isSpaceOrTab { end -= 1 }
        var hashes = end
        while hashes > firstNonspace, line[hashes - 1] == UInt8(ascii: "#") { hashes -= 1 }
        if hashes < end, hashes == firstNonspace || line[hashes - 1].isSpaceOrTab {
            end = hashes
            while end > firstNonspace, line[end - 1].isSpaceOrTab { end -= 1 }
        }
        line.removeSubrange(end..<(line.count - 1))
    }
}
