/// A parsed Markdown document: every block and inline as a node in one array, linked by index
/// (parent, first and last child, previous and next sibling), so that building, rewriting and
/// walking the tree needs neither recursion nor reference counting per node.
struct MarkdownTree {
    /// What a node is.
    enum Kind: UInt8 {
        case document, blockQuote, list, item, codeBlock, htmlBlock, paragraph, heading, thematicBreak
        case table, tableRow, tableCell, footnoteDefinition
        case text, softBreak, lineBreak, code, htmlInline, emphasis, strong, strikethrough, link, image
        case footnoteReference

        /// Whether a node of this kind holds blocks (rather than text or inlines).
        var isContainer: Bool {
            switch self {
            case .document, .blockQuote, .list, .item, .footnoteDefinition, .table, .tableRow: true
            default: false
            }
        }
    }

    /// One block or inline. Fields a kind does not use keep their defaults.
    struct Node {
        var kind: Kind
        var parent = -1
        var firstChild = -1
        var lastChild = -1
        var previous = -1
        var next = -1
        /// Whether the block may still take lines.
        var isOpen = true
        /// Whether the block's last line was blank (list looseness).
        var lastLineBlank = false
        /// The line the block started on.
        var startLine = 0
        /// Leaf text: a paragraph's or code block's lines, a text node's literal, a code span.
        var content: [UInt8] = []
        /// A code block's info string, a link's or image's destination, a footnote's label.
        var destination: [UInt8] = []
        /// A link's or image's title.
        var title: [UInt8] = []
        // Lists and items.
        var isOrdered = false
        var isTight = true
        var bulletCharacter: UInt8 = 0
        var delimiter: UInt8 = 0
        var start = 0
        var markerOffset = 0
        var padding = 0
        /// A task item's box: -1 none, 0 open, 1 checked.
        var task: Int8 = -1
        // Code blocks.
        var isFenced = false
        var fenceCharacter: UInt8 = 0
        var fenceLength = 0
        var fenceOffset = 0
        /// A heading's level, an HTML block's type (1-7), a header row's 1, a footnote's number.
        var level = 0
        /// A setext heading (underlined) rather than an ATX one.
        var isSetext = false
        /// A paragraph whose lines stay text even if they read as link reference definitions
        /// (the lines above a table, as GitHub has them).
        var keepsDefinitions = false
        /// A table cell's alignment: 0 none, `l`, `c` or `r`; a table's alignments per column.
        var alignment: UInt8 = 0
        var alignments: [UInt8] = []

        init(kind: Kind) { self.kind = kind }
    }

    var nodes: [Node] = [Node(kind: .document)]

    /// The document node.
    static let root = 0

    /// Adds `node` as the last child of `parent` and returns its index.
    @discardableResult
    mutating func append(_ node: Node, to parent: Int) -> Int {
        let index = nodes.count
        nodes.append(node)
        appendExisting(index, to: parent)
        return index
    }

    /// Makes the existing, unlinked node `index` the last child of `parent`.
    mutating func appendExisting(_ index: Int, to parent: Int) {
        nodes[index].parent = parent
        nodes[index].next = -1
        let last = nodes[parent].lastChild
        nodes[index].previous = last
        if last >= 0 { nodes[last].next = index } else { nodes[parent].firstChild = index }
        nodes[parent].lastChild = index
    }

    /// Adds `node` right after `sibling` and returns its index.
    @discardableResult
    mutating func insert(_ node: Node, after sibling: Int) -> Int {
        let index = nodes.count
        nodes.append(node)
        let parent = nodes[sibling].parent
        let next = nodes[sibling].next
        nodes[index].parent = parent
        nodes[index].previous = sibling
        nodes[index].next = next
        nodes[sibling].next = index
        if next >= 0 { nodes[next].previous = index } else if parent >= 0 { nodes[parent].lastChild = index }
        return index
    }

    /// Adds `node` right before `sibling` and returns its index.
    @discardableResult
    mutating func insert(_ node: Node, before sibling: Int) -> Int {
        let index = nodes.count
        nodes.append(node)
        let parent = nodes[sibling].parent
        let previous = nodes[sibling].previous
        nodes[index].parent = parent
        nodes[index].previous = previous
        nodes[index].next = sibling
        nodes[sibling].previous = index
        if previous >= 0 {
            nodes[previous].next = index
        } else if parent >= 0 {
            nodes[parent].firstChild = index
        }
        return index
    }

    /// Takes `index` out of its parent's children (the node stays in the array, unreachable).
    mutating func unlink(_ index: Int) {
        let parent = nodes[index].parent
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous >= 0 {
            nodes[previous].next = next
        } else if parent >= 0 {
            nodes[parent].firstChild = next
        }
        if next >= 0 {
            nodes[next].previous = previous
        } else if parent >= 0 {
            nodes[parent].lastChild = previous
        }
        nodes[index].parent = -1
        nodes[index].previous = -1
        nodes[index].next = -1
    }

    /// Moves the siblings after `start` (up to `end`, excluded; -1 for all) to be the children of `parent`.
    mutating func moveSiblings(after start: Int, upTo end: Int = -1, into parent: Int) {
        var current = nodes[start].next
        while current >= 0, current != end {
            let next = nodes[current].next
            unlink(current)
            appendExisting(current, to: parent)
            current = next
        }
    }
}

extension MarkdownTree.Node {
    /// A finished link to `destination` (its text is added as its child).
    static func closedLink(to destination: [UInt8]) -> Self {
        var link = Self(kind: .link)
        link.destination = destination
        link.isOpen = false
        return link
    }

    /// A finished run of text.
    static func closedText(_ content: [UInt8]) -> Self {
        var text = Self(kind: .text)
        text.content = content
        text.isOpen = false
        return text
    }
}
