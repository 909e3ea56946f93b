/// GitHub's tables: a paragraph's last line followed by a delimiter row (`| --- | :-: |`) with as
/// many cells becomes a table's header; each later line is a row until a blank line or the start
/// of another block.
extension MarkdownParser {
    /// Turns the last line of `paragraph` into a table header when the current line is a
    /// matching delimiter row; returns the table.
    mutating func openTable(after paragraph: Int) -> Int? {
        guard let alignments = delimiterRow() else { return nil }
        let content = tree.nodes[paragraph].content
        var end = content.count
        while end > 0, content[end - 1] == .newline { end -= 1 }
        var lastLineStart = end
        while lastLineStart > 0, content[lastLineStart - 1] != .newline { lastLineStart -= 1 }
        let headerLine = Array(content[lastLineStart..<end])
        let header = Self.cells(of: headerLine, from: 0, to: headerLine.count)
        guard header.count == alignments.count else { return nil }
        if !headerLine.contains(UInt8(ascii: "|")), !line.contains(UInt8(ascii: "|")) { return nil }

        let tableIndex: Int
        if lastLineStart == 0 {
            tableIndex = paragraph
            tree.nodes[paragraph].kind = .table
            tree.nodes[paragraph].content = []
        } else {
            tree.nodes[paragraph].content.removeSubrange(lastLineStart...)
            tableIndex = tree.insert(MarkdownTree.Node(kind: .table), after: paragraph)
            tree.nodes[paragraph].keepsDefinitions = true
            finalize(paragraph)
        }
        if lastMatchedContainer == paragraph { lastMatchedContainer = tableIndex }
        tree.nodes[tableIndex].alignments = alignments
        tree.nodes[tableIndex].startLine = lineNumber
        appendRow(header, to: tableIndex, isHeader: true)
        tip = tableIndex
        advance(line.count - 1 - offset, columns: false)
        return tableIndex
    }

    /// Adds the current line as a body row of `table`.
    mutating func addTableRow(to table: Int) {
        advance(firstNonspace - offset, columns: false)
        var cells = Self.cells(of: line, from: offset, to: line.count - 1)
        let alignments = tree.nodes[table].alignments
        if cells.count > alignments.count { cells.removeLast(cells.count - alignments.count) }
        while cells.count < alignments.count { cells.append([]) }
        appendRow(cells, to: table, isHeader: false)
    }

    /// Adds a closed row of `cells` (as many as the table has columns) to `table`, each cell
    /// with its column's alignment; a header row has level 1.
    private mutating func appendRow(_ cells: [[UInt8]], to table: Int, isHeader: Bool) {
        var row = MarkdownTree.Node(kind: .tableRow)
        if isHeader { row.level = 1 }
        row.isOpen = false
        let rowIndex = tree.append(row, to: table)
        let alignments = tree.nodes[table].alignments
        for (column, cell) in cells.enumerated() {
            var node = MarkdownTree.Node(kind: .tableCell)
            node.content = cell
            node.alignment = alignments[column]
            node.isOpen = false
            tree.append(node, to: rowIndex)
        }
    }

    /// The alignments of the current line as a delimiter row, or nil when it is not one.
    private mutating func delimiterRow() -> [UInt8]? {
        let cells = Self.cells(of: line, from: firstNonspace, to: line.count - 1)
        guard !cells.isEmpty else { return nil }
        var alignments: [UInt8] = []
        for cell in cells {
            guard !cell.isEmpty else { return nil }
            var start = 0
            var end = cell.count
            let left = cell[start] == UInt8(ascii: ":")
            if left { start += 1 }
            let right = end > start && cell[end - 1] == UInt8(ascii: ":")
            if right { end -= 1 }
            guard end > start, cell[start..<end].allSatisfy({ $0 == UInt8(ascii: "-") }) else { return nil }
            alignments.append(
                left && right ? UInt8(ascii: "c") : left ? UInt8(ascii: "l") : right ? UInt8(ascii: "r") : 0)
        }
        return alignments
    }

    /// The cells of a row between `start` and `end`: split at unescaped pipes, an outer pipe on
    /// either side optional, each trimmed, `\|` read as `|`.
    static func cells(of bytes: [UInt8], from start: Int, to end: Int) -> [[UInt8]] {
        var start = start
        var end = end
        while start < end, bytes[start].isSpaceOrTab { start += 1 }
        while end > start, bytes[end - 1].isMarkdownWhitespace { end -= 1 }
        guard start < end else { return [] }
        if bytes[start] == UInt8(ascii: "|") { start += 1 }
        if end > start, bytes[end - 1] == UInt8(ascii: "|"),
            end - 2 < start || bytes[end - 2] != UInt8(ascii: "\\")
        {
            end -= 1
        }
        var cells: [[UInt8]] = []
        var cell: [UInt8] = []
        var index = start
        var sawAny = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\"), index + 1 < end, bytes[index + 1] == UInt8(ascii: "|") {
                cell.append(UInt8(ascii: "|"))
                index += 2
                continue
            }
            if byte == UInt8(ascii: "|") {
                cells.append(trimmed(cell))
                cell.removeAll()
                sawAny = true
            } else {
                cell.append(byte)
            }
            index += 1
        }
        if sawAny || !cell.isEmpty || start < end || cells.isEmpty { cells.append(trimmed(cell)) }
        return cells
    }

    private static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start].isMarkdownWhitespace { start += 1 }
        while end > start, bytes[end - 1].isMarkdownWhitespace { end -= 1 }
        return Array(bytes[start..<end])
    }
}
