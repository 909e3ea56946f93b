/// Writes a parsed document as HTML, walking the tree with an explicit loop (no recursion, so
/// a deeply nested document cannot overflow the stack). Output follows cmark-gfm's, apart from
/// the renderer's deliberate differences: raw HTML is escaped, addresses with a scheme other
/// than http, https and mailto are dropped, headings carry ids, code is highlighted.
struct HTMLWriter {
    let tree: MarkdownTree
    /// Keep every scheme (the specification's own examples use made-up ones).
    let keepsEveryScheme: Bool
    /// Write a strong emphasis right inside another once, as GitHub does.
    let collapsesNestedStrong: Bool
    var output: [UInt8] = []
    private var headingIDs: Set<[UInt8]> = []
    /// Footnote definitions in the order of their first reference, their numbers, and how many
    /// references each has.
    private let footnoteOrder: [Int]
    private let footnoteNumbers: [Int: Int]
    private let footnoteReferenceCounts: [Int: Int]

    init(_ inlines: InlineParser, flavor: MarkdownRenderer.Flavor) {
        tree = inlines.tree
        footnoteOrder = inlines.footnoteOrder
        footnoteNumbers = inlines.footnoteNumbers
        footnoteReferenceCounts = inlines.footnoteReferenceCounts
        keepsEveryScheme = flavor == .specification
        collapsesNestedStrong = flavor == .github
        output.reserveCapacity(tree.nodes.count * 16)
    }

    mutating func write() -> String {
        walk(from: MarkdownTree.root)
        if !footnoteOrder.isEmpty { writeFootnotes() }
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: The walk

    private mutating func walk(from root: Int) {
        var current = root
        var entering = true
        while true {
            if entering {
                if enter(current), tree.nodes[current].firstChild >= 0 {
                    current = tree.nodes[current].firstChild
                    continue
                }
            }
            exit(current)
            if current == root { break }
            if tree.nodes[current].next >= 0 {
                current = tree.nodes[current].next
                entering = true
            } else {
                current = tree.nodes[current].parent
                entering = false
            }
        }
    }

    private mutating func newlineIfNeeded() {
        if let last = output.last, last != .newline { output.append(.newline) }
    }

    private mutating func write(_ string: StaticString) {
        output.append(
            contentsOf: UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    private mutating func write(_ string: String) { output.append(contentsOf: string.utf8) }

    private mutating func writeEscaped(_ bytes: [UInt8]) { writeEscaped(bytes[...]) }

    /// Appends `bytes` with `&`, `<`, `>` and `"` as entities, copying the runs between them whole.
    private mutating func writeEscaped(_ bytes: ArraySlice<UInt8>) {
        var runStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\"")
            {
                output.append(contentsOf: bytes[runStart..<index])
                switch byte {
                case UInt8(ascii: "&"): write("&amp;")
                case UInt8(ascii: "<"): write("&lt;")
                case UInt8(ascii: ">"): write("&gt;")
                default: write("&quot;")
                }
                runStart = index + 1
            }
            index += 1
        }
        output.append(contentsOf: bytes[runStart..<index])
    }

    /// Whether a strong emphasis sits right inside another: GitHub writes the outer one only
    /// (`****a****` is one `<strong>`).
    private func isInsideStrong(_ index: Int) -> Bool {
        let parent = tree.nodes[index].parent
        return collapsesNestedStrong && parent >= 0 && tree.nodes[parent].kind == .strong
    }

    private func isInTightList(_ paragraph: Int) -> Bool {
        let parent = tree.nodes[paragraph].parent
        guard parent >= 0, tree.nodes[parent].kind == .item else { return false }
        let list = tree.nodes[parent].parent
        return list >= 0 && tree.nodes[list].isTight
    }

    /// Writes the opening of `index`; returns whether its children are to be walked.
    private mutating func enter(_ index: Int) -> Bool {
        let node = tree.nodes[index]
        switch node.kind {
        case .document: return true
        case .blockQuote:
            newlineIfNeeded()
            write("<blockquote>\n")
        case .list:
            newlineIfNeeded()
            if node.isOrdered {
                if node.start != 1 {
                    write("<ol start=\"\(node.start)\">\n")
                } else {
                    write("<ol>\n")
                }
            } else {
                write("<ul>\n")
            }
        case .item:
            newlineIfNeeded()
            if node.task >= 0 {
                write(
                    node.task == 1
                        ? "<li class=\"task\"><input type=\"checkbox\" checked=\"\" disabled=\"\" /> "
                        : "<li class=\"task\"><input type=\"checkbox\" disabled=\"\" /> ")
            } else {
                write("<li>")
            }
        case .paragraph:
            if !isInTightList(index) {
                newlineIfNeeded()
                write("<p>")
            }
        case .heading:
            newlineIfNeeded()
            write("<h\(node.level) id=\"")
            writeEscaped(headingID(index))
            write("\">")
        case .thematicBreak:
            newlineIfNeeded()
            write("<hr />\n")
        case .codeBlock:
            writeCode(node)
        case .htmlBlock:
            newlineIfNeeded()
            write("<pre class=\"raw-html\">")
            var content = node.content[...]
            while content.last == .newline { content = content.dropLast() }
            writeEscaped(content)
            write("</pre>\n")
        case .table:
            newlineIfNeeded()
            write("<table>\n")
        case .tableRow:
            if node.level == 1 {
                write("<thead>\n")
            } else if node.previous >= 0, tree.nodes[node.previous].level == 1 {
                write("<tbody>\n")
            }
            write("<tr>\n")
        case .tableCell:
            let header = tree.nodes[node.parent].level == 1
            write(header ? "<th" : "<td")
            switch node.alignment {
            case UInt8(ascii: "l"): write(" align=\"left\"")
            case UInt8(ascii: "c"): write(" align=\"center\"")
            case UInt8(ascii: "r"): write(" align=\"right\"")
            default: break
            }
            write(">")
        case .footnoteDefinition:
            return false
        case .text:
            writeEscaped(node.content)
        case .softBreak:
            output.append(.newline)
        case .lineBreak:
            write("<br />\n")
        case .code:
            write("<code>")
            writeEscaped(node.content)
            write("</code>")
        case .htmlInline:
            write("<span class=\"raw-html\">")
            writeEscaped(node.content)
            write("</span>")
        case .emphasis: write("<em>")
        case .strong: if !isInsideStrong(index) { write("<strong>") }
        case .strikethrough: write("<del>")
        case .link:
            guard let url = safeURL(node.destination) else { return true }
            write("<a href=\"")
            writeEscaped(url)
            if !node.title.isEmpty {
                write("\" title=\"")
                writeEscaped(node.title)
            }
            write("\">")
        case .image:
            guard let url = safeURL(node.destination) else {
                writeEscaped(plainText(of: index))
                return false
            }
            write("<img src=\"")
            writeEscaped(url)
            write("\" alt=\"")
            writeEscaped(plainText(of: index))
            if !node.title.isEmpty {
                write("\" title=\"")
                writeEscaped(node.title)
            }
            // Images below the fold load when scrolled to (a long note on a phone).
            write("\" loading=\"lazy\" />")
            return false
        case .footnoteReference:
            writeFootnoteReference(node)
        }
        return true
    }

    private mutating func exit(_ index: Int) {
        let node = tree.nodes[index]
        switch node.kind {
        case .blockQuote:
            newlineIfNeeded()
            write("</blockquote>\n")
        case .list:
            newlineIfNeeded()
            write(node.isOrdered ? "</ol>\n" : "</ul>\n")
        case .item:
            write("</li>\n")
        case .paragraph:
            writeBackReferencesIfLast(index)
            if !isInTightList(index) { write("</p>\n") }
        case .heading:
            write("</h\(node.level)>\n")
        case .table:
            if tree.nodes[node.lastChild].level != 1 { write("</tbody>\n") }
            write("</table>\n")
        case .tableRow:
            write("</tr>\n")
            if node.level == 1 { write("</thead>\n") }
        case .tableCell:
            write(tree.nodes[node.parent].level == 1 ? "</th>\n" : "</td>\n")
        case .emphasis: write("</em>")
        case .strong: if !isInsideStrong(index) { write("</strong>") }
        case .strikethrough: write("</del>")
        case .link:
            if safeURL(node.destination) != nil { write("</a>") }
        default:
            break
        }
    }

    // MARK: Code

    private mutating func writeCode(_ node: MarkdownTree.Node) {
        newlineIfNeeded()
        let language = node.destination.split(whereSeparator: { $0.isMarkdownWhitespace }).first.map(
            Array.init)
        write("<pre><code")
        if let language {
            write(" class=\"language-")
            writeEscaped(language)
            write("\"")
        }
        write(">")
        let source = String(decoding: node.content, as: UTF8.self)
        // Highlighted like any source file when the highlighter knows the language (named as
        // in the info string, or by its usual extension: `js`, `py`, `sh`).
        if let language {
            let name = String(decoding: language, as: UTF8.self).lowercased()
            if let highlighted = SyntaxHighlighter.html(
                for: source, language: SyntaxLanguage.extensions[name] ?? name)
            {
                write(highlighted)
                write("</code></pre>\n")
                return
            }
        }
        writeEscaped(node.content)
        write("</code></pre>\n")
    }

    // MARK: Headings

    /// A stable id for a heading, as GitHub makes them: its text lowercased, spaces as `-`,
    /// punctuation dropped, `-1`, `-2`, … after a repeat.
    private mutating func headingID(_ index: Int) -> [UInt8] {
        let text = String(decoding: plainText(of: index), as: UTF8.self).lowercased()
        var slug = ""
        for scalar in text.unicodeScalars {
            if scalar == " " {
                slug.unicodeScalars.append("-")
            } else if scalar == "-" || scalar == "_" || scalar.properties.isAlphabetic
                || scalar.properties.numericType != nil
            {
                slug.unicodeScalars.append(scalar)
            }
        }
        if slug.isEmpty { slug = "section" }
        var candidate = Array(slug.utf8)
        var number = 0
        while headingIDs.contains(candidate) {
            number += 1
            candidate = Array((slug + "-\(number)").utf8)
        }
        headingIDs.insert(candidate)
        return candidate
    }

    /// The text of a node's descendants, without markup (image descriptions, heading ids).
    func plainText(of index: Int) -> [UInt8] {
        var text: [UInt8] = []
        var stack: [Int] = []
        var child = tree.nodes[index].lastChild
        while child >= 0 {
            stack.append(child)
            child = tree.nodes[child].previous
        }
        while let current = stack.popLast() {
            let node = tree.nodes[current]
            switch node.kind {
            case .text, .code, .htmlInline: text.append(contentsOf: node.content)
            case .softBreak, .lineBreak: text.append(.space)
            default: break
            }
            var grandchild = node.lastChild
            while grandchild >= 0 {
                stack.append(grandchild)
                grandchild = tree.nodes[grandchild].previous
            }
        }
        return text
    }

    // MARK: Addresses

    /// The address as written into `href`/`src` (percent-encoded where needed), or nil when
    /// its scheme is not one a note may link to.
    func safeURL(_ destination: [UInt8]) -> [UInt8]? {
        if !keepsEveryScheme, let scheme = Self.scheme(of: destination) {
            guard
                scheme == Array("http".utf8) || scheme == Array("https".utf8)
                    || scheme == Array("mailto".utf8)
            else { return nil }
        }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(destination.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in destination {
            if byte.isASCIIAlphanumeric || Self.urlSafe.contains(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hex[Int(byte >> 4)])
                encoded.append(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    private static let urlSafe: Set<UInt8> = Set("-_.!~*'();/?:@&=+$,%#".utf8)

    /// The lowercased scheme of an address (`https` of `https://…`), or nil for a relative one,
    /// read as browsers read it: leading spaces and control characters skipped, tabs and line
    /// breaks inside ignored, and a scheme is a letter followed by letters, digits, `+`, `-`, `.`.
    static func scheme(of destination: [UInt8]) -> [UInt8]? {
        var index = 0
        while index < destination.count, destination[index] <= 0x20 { index += 1 }
        var scheme: [UInt8] = []
        while index < destination.count {
            let byte = destination[index]
            index += 1
            if byte == .tab || byte == .newline || byte == .carriageReturn { continue }
            if byte == UInt8(ascii: ":") { return scheme.isEmpty ? nil : scheme }
            if byte.isASCIILetter
                || (!scheme.isEmpty
                    && (byte.isASCIIDigit || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
            {
                scheme.append(byte.lowercasedASCII)
            } else {
                return nil
            }
        }
        return nil
    }

    // MARK: Footnotes

    private mutating func writeFootnoteReference(_ node: MarkdownTree.Node) {
        write("<sup class=\"footnote-ref\"><a href=\"#fn-")
        writeEscaped(node.destination)
        write("\" id=\"fnref-")
        writeEscaped(node.destination)
        if node.start > 1 { write("-\(node.start)") }
        write("\" data-footnote-ref>\(node.level)</a></sup>")
    }

    private mutating func writeFootnotes() {
        write("<section class=\"footnotes\" data-footnotes>\n<ol>\n")
        var index = 0
        while index < footnoteOrder.count {
            let definition = footnoteOrder[index]
            write("<li id=\"fn-")
            writeEscaped(tree.nodes[definition].destination)
            write("\">\n")
            var child = tree.nodes[definition].firstChild
            while child >= 0 {
                walk(from: child)
                child = tree.nodes[child].next
            }
            let last = tree.nodes[definition].lastChild
            if last < 0 || tree.nodes[last].kind != .paragraph {
                writeBackReferences(definition)
                output.append(.newline)
            }
            write("</li>\n")
            index += 1
        }
        write("</ol>\n</section>\n")
    }

    private mutating func writeBackReferencesIfLast(_ paragraph: Int) {
        let parent = tree.nodes[paragraph].parent
        guard parent >= 0, tree.nodes[parent].kind == .footnoteDefinition,
            tree.nodes[parent].lastChild == paragraph
        else { return }
        output.append(.space)
        writeBackReferences(parent)
    }

    private mutating func writeBackReferences(_ definition: Int) {
        let label = tree.nodes[definition].destination
        let number = footnoteNumbers[definition] ?? 0
        let count = footnoteReferenceCounts[definition] ?? 1
        for reference in 1...max(count, 1) {
            if reference > 1 { output.append(.space) }
            let suffix = reference > 1 ? "-\(reference)" : ""
            write("<a href=\"#fnref-")
            writeEscaped(label)
            write(
                "\(suffix)\" class=\"footnote-backref\" data-footnote-backref data-footnote-backref-idx=\"\(number)\(suffix)\" aria-label=\"Back to reference \(number)\(suffix)\">↩"
            )
            if reference > 1 { write("<sup class=\"footnote-ref\">\(reference)</sup>") }
            write("</a>")
        }
    }
}
