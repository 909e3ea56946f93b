/// The inline phase: the text of each paragraph, heading and table cell becomes text, code spans,
/// breaks, autolinks and raw HTML in one scan, with `*`, `_`, `~` runs and `[`, `![` kept on the
/// delimiter and bracket stacks until emphasis and links are resolved, as the specification's
/// appendix describes. Every step is bounded, so the pass is linear in the input.
struct InlineParser {
    struct Delimiter {
        var node: Int
        var character: UInt8
        var count: Int
        let originalCount: Int
        let canOpen: Bool
        let canClose: Bool
        var previous: Int
        var next: Int
    }

    struct Bracket {
        var node: Int
        let isImage: Bool
        /// Where the bracket's text starts in the subject.
        let textStart: Int
        /// The last delimiter that was on the stack when the bracket was pushed.
        let delimiterBottom: Int
        /// The number of links made before the bracket was pushed (a link inside deactivates it).
        let linkGeneration: Int
    }

    var tree: MarkdownTree
    let references: [[UInt8]: (destination: [UInt8], title: [UInt8])]
    let footnotes: [[UInt8]: Int]

    var subject: [UInt8] = []
    var position = 0
    var end = 0
    var block = 0
    var delimiters: [Delimiter] = []
    var lastDelimiter = -1
    var brackets: [Bracket] = []
    var linkGeneration = 0
    /// Open link brackets that may still make a link, and open image brackets.
    var activeLinkBrackets = 0
    var imageBrackets = 0
    var htmlMemo = RawHTMLSyntax.Memo()
    /// Backtick runs by length (their start positions), found on the first code span's search.
    var backtickRuns: [Int: [Int]]? = nil
    var backtickCursors: [Int: Int] = [:]
    /// Footnote definitions in the order of their first reference, numbered 1, 2, …
    var footnoteOrder: [Int] = []
    var footnoteNumbers: [Int: Int] = [:]
    var footnoteReferenceCounts: [Int: Int] = [:]

    init(_ parser: MarkdownParser) {
        tree = parser.tree
        references = parser.references
        footnotes = parser.footnotes
    }

    /// Parses the inlines of every paragraph, heading and table cell.
    mutating func parseAll() {
        let blockCount = tree.nodes.count
        for index in 0..<blockCount {
            let node = tree.nodes[index]
            guard node.kind == .paragraph || node.kind == .heading || node.kind == .tableCell else {
                continue
            }
            guard node.parent >= 0 else { continue }
            parse(block: index)
        }
    }

    private mutating func parse(block: Int) {
        self.block = block
        subject = tree.nodes[block].content
        tree.nodes[block].content = []
        position = 0
        end = subject.count
        while position < end, subject[position].isMarkdownWhitespace { position += 1 }
        while end > position, subject[end - 1].isMarkdownWhitespace { end -= 1 }
        delimiters.removeAll(keepingCapacity: true)
        lastDelimiter = -1
        brackets.removeAll(keepingCapacity: true)
        activeLinkBrackets = 0
        imageBrackets = 0
        htmlMemo = RawHTMLSyntax.Memo()
        backtickRuns = nil
        backtickCursors = [:]
        while position < end {
            parseInline()
        }
        processEmphasis(above: -1)
        linkEmailAddresses(in: block)
    }

    // MARK: One inline

    private mutating func parseInline() {
        let byte = subject[position]
        switch byte {
        case .newline: handleNewline()
        case UInt8(ascii: "`"): handleBackticks()
        case UInt8(ascii: "\\"): handleBackslash()
        case UInt8(ascii: "&"): handleEntity()
        case UInt8(ascii: "<"): handleLeftAngle()
        case UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"): handleDelimiterRun(byte)
        case UInt8(ascii: "["):
            let node = appendText(subject[position..<(position + 1)])
            pushBracket(node: node, isImage: false, textStart: position + 1)
            position += 1
        case UInt8(ascii: "!"):
            if position + 1 < end, subject[position + 1] == UInt8(ascii: "[") {
                let node = appendText(subject[position..<(position + 2)])
                pushBracket(node: node, isImage: true, textStart: position + 2)
                position += 2
            } else {
                appendText(subject[position..<(position + 1)])
                position += 1
            }
        case UInt8(ascii: "]"): handleCloseBracket()
        default:
            if !isInBracket, isAutolinkTrigger(at: position) {
                let length = byte == UInt8(ascii: "w") ? wwwAutolink() : schemeAutolink()
                if let length {
                    position += length
                    return
                }
            }
            let start = position
            position += 1
            while position < end, !isSpecial(subject[position], at: position) { position += 1 }
            appendText(subject[start..<position])
        }
    }

    private mutating func isSpecial(_ byte: UInt8, at index: Int) -> Bool {
        switch byte {
        case .newline, UInt8(ascii: "`"), UInt8(ascii: "\\"), UInt8(ascii: "&"), UInt8(ascii: "<"),
            UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "!"):
            return true
        case UInt8(ascii: "w"), UInt8(ascii: ":"):
            return isAutolinkTrigger(at: index)
        default:
            return false
        }
    }

    // MARK: Nodes

    @discardableResult
    mutating func appendText<C: Collection<UInt8>>(_ bytes: C) -> Int {
        var node = MarkdownTree.Node(kind: .text)
        node.content = Array(bytes)
        node.isOpen = false
        return tree.append(node, to: block)
    }

    @discardableResult
    mutating func appendNode(_ kind: MarkdownTree.Kind, content: [UInt8] = []) -> Int {
        var node = MarkdownTree.Node(kind: kind)
        node.content = content
        node.isOpen = false
        return tree.append(node, to: block)
    }

    // MARK: Breaks, escapes, entities, code

    private mutating func handleNewline() {
        position += 1
        var hard = false
        let last = tree.nodes[block].lastChild
        if last >= 0, tree.nodes[last].kind == .text {
            var spaces = 0
            while let byte = tree.nodes[last].content.last, byte == .space {
                tree.nodes[last].content.removeLast()
                spaces += 1
            }
            hard = spaces >= 2
        }
        appendNode(hard ? .lineBreak : .softBreak)
        while position < end, subject[position].isSpaceOrTab { position += 1 }
    }

    private mutating func handleBackslash() {
        let next = position + 1
        if next < end, subject[next] == .newline {
            appendNode(.lineBreak)
            position = next + 1
            while position < end, subject[position].isSpaceOrTab { position += 1 }
        } else if next < end, subject[next].isASCIIPunctuation {
            appendText(subject[next..<(next + 1)])
            position = next + 1
        } else {
            appendText(subject[position..<next])
            position = next
        }
    }

    private mutating func handleEntity() {
        if let (decoded, length) = LinkSyntax.entity(subject, at: position, end: end) {
            appendText(decoded)
            position += length
        } else {
            appendText(subject[position..<(position + 1)])
            position += 1
        }
    }

    private mutating func handleBackticks() {
        let start = position
        while position < end, subject[position] == UInt8(ascii: "`") { position += 1 }
        let length = position - start
        guard let close = closingBacktickRun(length: length, after: position) else {
            appendText(subject[start..<position])
            return
        }
        var content = Array(subject[position..<close])
        for index in content.indices where content[index] == .newline { content[index] = .space }
        if content.count >= 2, content.first == .space, content.last == .space,
            content.contains(where: { $0 != .space })
        {
            content.removeFirst()
            content.removeLast()
        }
        appendNode(.code, content: content)
        position = close + length
    }

    /// The start of the first run of exactly `length` backticks at or after `start`.
    private mutating func closingBacktickRun(length: Int, after start: Int) -> Int? {
        if backtickRuns == nil {
            var runs: [Int: [Int]] = [:]
            var index = 0
            while index < end {
                if subject[index] == UInt8(ascii: "`") {
                    let runStart = index
                    while index < end, subject[index] == UInt8(ascii: "`") { index += 1 }
                    runs[index - runStart, default: []].append(runStart)
                } else {
                    index += 1
                }
            }
            backtickRuns = runs
        }
        guard let starts = backtickRuns?[length] else { return nil }
        var cursor = backtickCursors[length] ?? 0
        while cursor < starts.count, starts[cursor] < start { cursor += 1 }
        backtickCursors[length] = cursor
        return cursor < starts.count ? starts[cursor] : nil
    }

    // MARK: Autolinks and raw HTML

    private mutating func handleLeftAngle() {
        if let length = uriAutolinkLength() {
            let address = subject[(position + 1)..<(position + length - 1)]
            appendLink(destination: Array(address), text: Array(address))
            position += length
            return
        }
        if let length = emailAutolinkLength() {
            let address = subject[(position + 1)..<(position + length - 1)]
            appendLink(destination: Array("mailto:".utf8) + address, text: Array(address))
            position += length
            return
        }
        if let length = RawHTMLSyntax.inlineLength(subject, at: position, end: end, memo: &htmlMemo) {
            appendNode(.htmlInline, content: Array(subject[position..<(position + length)]))
            position += length
            return
        }
        appendText(subject[position..<(position + 1)])
        position += 1
    }

    mutating func appendLink(destination: [UInt8], text: [UInt8]) {
        let index = tree.append(.closedLink(to: destination), to: block)
        tree.append(.closedText(text), to: index)
    }

    private mutating func uriAutolinkLength() -> Int? {
        var index = position + 1
        guard index < end, subject[index].isASCIILetter else { return nil }
        index += 1
        while index < end, index - position - 1 <= 32,
            subject[index].isASCIIAlphanumeric || subject[index] == UInt8(ascii: "+")
                || subject[index] == UInt8(ascii: ".") || subject[index] == UInt8(ascii: "-")
        {
            index += 1
        }
        let schemeLength = index - position - 1
        guard schemeLength >= 2, schemeLength <= 32, index < end, subject[index] == UInt8(ascii: ":") else {
            return nil
        }
        index += 1
        while index < end {
            let byte = subject[index]
            if byte == UInt8(ascii: ">") { return index + 1 - position }
            if byte <= 0x20 || byte == UInt8(ascii: "<") || byte == 0x7F { return nil }
            index += 1
        }
        return nil
    }

    private mutating func emailAutolinkLength() -> Int? {
        var index = position + 1
        let localStart = index
        while index < end {
            let byte = subject[index]
            if byte.isASCIIAlphanumeric || Self.emailLocalPunctuation.contains(byte) {
                index += 1
            } else {
                break
            }
        }
        guard index > localStart, index < end, subject[index] == UInt8(ascii: "@") else { return nil }
        index += 1
        while true {
            let labelStart = index
            while index < end, subject[index].isASCIIAlphanumeric || subject[index] == UInt8(ascii: "-"),
                index - labelStart < 63
            {
                index += 1
            }
            guard index > labelStart, subject[labelStart] != UInt8(ascii: "-"),
                subject[index - 1] != UInt8(ascii: "-")
            else { return nil }
            guard index < end else { return nil }
            if subject[index] == UInt8(ascii: ">") { return index + 1 - position }
            guard subject[index] == UInt8(ascii: ".") else { return nil }
            index += 1
        }
    }

    private static let emailLocalPunctuation: Set<UInt8> = Set(".!#$%&'*+/=?^_`{|}~-".utf8)
}
