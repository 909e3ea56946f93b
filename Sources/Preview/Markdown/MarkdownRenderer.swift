/// Renders Markdown to HTML for the web UI's viewer: headings, paragraphs, emphasis, strong,
/// strikethrough, code spans, fenced code (its language as a class), block quotes, ordered,
/// bullet and task lists (nested), tables with alignment, links, images, autolinks and rules.
///
/// A Markdown file cannot run script: raw HTML is never passed through (it shows as text), and a
/// link or image whose address has a scheme other than `http`, `https` or `mailto` (`javascript:`,
/// `data:`, …) keeps its text and loses its address.
///
/// ```swift
/// MarkdownRenderer.html("# Notes\n\n- [x] done\n- [ ] *todo*")
/// ```
public enum MarkdownRenderer {
    /// The HTML of `markdown`.
    public static func html(_ markdown: String) -> String {
        let lines = markdown.replacing("\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map {
            expandTabs(String($0))
        }
        var output = ""
        renderBlocks(lines[...], into: &output)
        return output
    }

    // MARK: Blocks

    private static func renderBlocks(_ lines: ArraySlice<String>, into output: inout String) {
        var index = lines.startIndex
        var paragraph: [String] = []
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            output += "<p>" + inlineLines(paragraph) + "</p>\n"
            paragraph = []
        }
        while index < lines.endIndex {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if trimmed.isEmpty {
                flushParagraph()
                index += 1
                continue
            }
            if indent < 4, let fence = fenceOpening(trimmed) {
                flushParagraph()
                var code: [String] = []
                index += 1
                while index < lines.endIndex, !isFenceClosing(lines[index], fence: fence.marker) {
                    code.append(
                        String(lines[index].dropFirst(min(indent, lines[index].prefix { $0 == " " }.count))))
                    index += 1
                }
                index += 1
                let info = fence.info.split(separator: " ").first.map(String.init)
                let language = info.map { " class=\"language-\(HTMLText.escaped($0))\"" } ?? ""
                let source = code.joined(separator: "\n") + (code.isEmpty ? "" : "\n")
                // Highlighted like any source file when the highlighter knows the language
                // (named as in the info string, or by its usual extension: `js`, `py`, `sh`).
                let highlighted = info.flatMap { name in
                    SyntaxHighlighter.html(
                        for: source,
                        language: SyntaxLanguage.extensions[name.lowercased()] ?? name.lowercased())
                }
                output +=
                    "<pre><code\(language)>" + (highlighted ?? HTMLText.escaped(source)) + "</code></pre>\n"
                continue
            }
            if indent < 4, let heading = atxHeading(trimmed) {
                flushParagraph()
                output += "<h\(heading.level)>" + inline(heading.text) + "</h\(heading.level)>\n"
                index += 1
                continue
            }
            if indent < 4, isThematicBreak(trimmed),
                paragraph.isEmpty || !trimmed.allSatisfy({ $0 == "-" || $0 == " " })
            {
                flushParagraph()
                output += "<hr>\n"
                index += 1
                continue
            }
            if indent < 4, !paragraph.isEmpty, let level = setextLevel(trimmed) {
                output += "<h\(level)>" + inlineLines(paragraph) + "</h\(level)>\n"
                paragraph = []
                index += 1
                continue
            }
            if indent < 4, trimmed.hasPrefix(">") {
                flushParagraph()
                var quoted: [String] = []
                while index < lines.endIndex {
                    let current = lines[index].drop { $0 == " " }
                    if current.hasPrefix(">") {
                        var rest = current.dropFirst()
                        if rest.hasPrefix(" ") { rest = rest.dropFirst() }
                        quoted.append(String(rest))
                    } else if !current.isEmpty, !quoted.isEmpty, !(quoted.last ?? "").isEmpty,
                        startsBlock(current) == false
                    {
                        quoted.append(String(current))  // a lazy continuation of the quoted paragraph
                    } else {
                        break
                    }
                    index += 1
                }
                output += "<blockquote>\n"
                renderBlocks(quoted[...], into: &output)
                output += "</blockquote>\n"
                continue
            }
            if indent < 4, let marker = listMarker(trimmed) {
                flushParagraph()
                index = renderList(lines, from: index, first: marker, into: &output)
                continue
            }
            if indent < 4, paragraph.isEmpty, index + 1 < lines.endIndex, trimmed.contains("|"),
                let alignments = tableDelimiter(lines[index + 1]),
                cells(of: trimmed).count == alignments.count
            {
                index = renderTable(lines, from: index, alignments: alignments, into: &output)
                continue
            }
            if indent >= 4, paragraph.isEmpty {
                var code: [String] = []
                while index < lines.endIndex {
                    let current = lines[index]
                    if current.drop(while: { $0 == " " }).isEmpty { code.append(""); index += 1; continue }
                    guard current.prefix(4).allSatisfy({ $0 == " " }), current.count >= 4 else { break }
                    code.append(String(current.dropFirst(4)))
                    index += 1
                }
                while code.last == "" { code.removeLast() }
                output += "<pre><code>" + HTMLText.escaped(code.joined(separator: "\n")) + "\n</code></pre>\n"
                continue
            }
            paragraph.append(String(trimmed))
            index += 1
        }
        flushParagraph()
    }

    /// Whether a line would open a block other than a paragraph (so it ends a lazy continuation).
    private static func startsBlock(_ line: Substring) -> Bool {
        fenceOpening(line) != nil || atxHeading(line) != nil || isThematicBreak(line) || line.hasPrefix(">")
            || listMarker(line) != nil
    }

    private struct ListMarker {
        let ordered: Bool
        let start: Int
        /// The marker's character (`-`, `*`, `+`, `.` or `)`): a different one starts a new list.
        let symbol: Character
        /// Columns from the line's first non-space to the item's text.
        let width: Int
    }

    private static func listMarker(_ line: Substring) -> ListMarker? {
        guard let first = line.first else { return nil }
        if first == "-" || first == "*" || first == "+" {
            let rest = line.dropFirst()
            guard rest.isEmpty || rest.first == " " else { return nil }
            if isThematicBreak(line) { return nil }
            let spaces = min(4, rest.prefix { $0 == " " }.count)
            return ListMarker(
                ordered: false, start: 1, symbol: first, width: 1 + max(1, rest.isEmpty ? 1 : spaces))
        }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let start = Int(digits) else { return nil }
        let rest = line.dropFirst(digits.count)
        guard let symbol = rest.first, symbol == "." || symbol == ")" else { return nil }
        let after = rest.dropFirst()
        guard after.isEmpty || after.first == " " else { return nil }
        let spaces = min(4, after.prefix { $0 == " " }.count)
        return ListMarker(
            ordered: true, start: start, symbol: symbol,
            width: digits.count + 1 + max(1, after.isEmpty ? 1 : spaces))
    }

    /// Renders the list that starts at `start`; returns the index after it.
    private static func renderList(
        _ lines: ArraySlice<String>, from start: Int, first: ListMarker, into output: inout String
    ) -> Int {
        var items: [[String]] = []
        var index = start
        var loose = false
        var sawBlank = false
        while index < lines.endIndex {
            let line = lines[index]
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if trimmed.isEmpty {
                sawBlank = true
                items[items.count - 1].append("")
                index += 1
                continue
            }
            if indent < 4, let marker = listMarker(trimmed), marker.ordered == first.ordered,
                marker.symbol == first.symbol,
                indent < (items.isEmpty ? 4 : first.width)
            {
                if sawBlank && !items.isEmpty { loose = true }
                sawBlank = false
                let text = String(trimmed.dropFirst(min(marker.width, trimmed.count)))
                items.append([text])
                index += 1
                continue
            }
            if indent >= first.width {
                if sawBlank { loose = true }
                sawBlank = false
                items[items.count - 1].append(String(line.dropFirst(first.width)))
                index += 1
                continue
            }
            // A lazy continuation line of the item's paragraph.
            if !sawBlank, !startsBlock(trimmed), !(items.last?.last ?? "").isEmpty {
                items[items.count - 1].append(String(trimmed))
                index += 1
                continue
            }
            break
        }
        for item in items.indices { while items[item].last == "" { items[item].removeLast() } }
        let tag = first.ordered ? "ol" : "ul"
        output += first.ordered && first.start != 1 ? "<ol start=\"\(first.start)\">\n" : "<\(tag)>\n"
        for var item in items {
            var checkbox = ""
            if let text = item.first, text.count >= 3 {
                let box = text.prefix(3)
                if box == "[ ]" || box == "[x]" || box == "[X]",
                    text.count == 3 || text.dropFirst(3).first == " "
                {
                    checkbox = "<input type=\"checkbox\" disabled\(box == "[ ]" ? "" : " checked")> "
                    item[0] = String(text.dropFirst(3).drop { $0 == " " })
                }
            }
            output += checkbox.isEmpty ? "<li>" : "<li class=\"task\">"
            var inner = ""
            renderBlocks(item[...], into: &inner)
            if !loose {
                // A tight list: its paragraphs are not wrapped.
                inner = inner.replacing("<p>", with: "").replacing("</p>\n", with: "\n")
            }
            output += checkbox + inner.trimmingNewlines() + "</li>\n"
        }
        output += "</\(tag)>\n"
        return index
    }

    private static func renderTable(
        _ lines: ArraySlice<String>, from start: Int, alignments: [String?], into output: inout String
    ) -> Int {
        func row(_ line: Substring, cell: String) -> String {
            var cells = self.cells(of: line)
            if cells.count < alignments.count {
                cells += Array(repeating: "", count: alignments.count - cells.count)
            }
            var html = "<tr>"
            for (position, text) in cells.prefix(alignments.count).enumerated() {
                // A class, not a style attribute: the web UI's CSP allows no inline style.
                let align = alignments[position].map { " class=\"align-\($0)\"" } ?? ""
                html += "<\(cell)\(align)>" + inline(Substring(text)) + "</\(cell)>"
            }
            return html + "</tr>\n"
        }
        output += "<table>\n<thead>\n" + row(lines[start].drop { $0 == " " }, cell: "th") + "</thead>\n"
        var index = start + 2
        var body = ""
        while index < lines.endIndex {
            let line = lines[index].drop { $0 == " " }
            guard !line.isEmpty, line.contains("|") || !startsBlock(line) else { break }
            body += row(line, cell: "td")
            index += 1
        }
        if !body.isEmpty { output += "<tbody>\n" + body + "</tbody>\n" }
        output += "</table>\n"
        return index
    }

    /// A table row's cells: split on `|` (not `\|`, not inside a code span), outer pipes dropped.
    private static func cells(of line: Substring) -> [String] {
        var text = line.trimmingSpaces()
        if text.hasPrefix("|") { text.removeFirst() }
        if text.hasSuffix("|") && !text.hasSuffix("\\|") { text.removeLast() }
        var cells: [String] = []
        var current = ""
        var inCode = false
        var escaped = false
        for character in text {
            if escaped {
                current.append(character == "|" ? "|" : "\\\(character)")
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "`" {
                inCode.toggle()
                current.append(character)
            } else if character == "|" && !inCode {
                cells.append(current.trimmingSpaces())
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        cells.append(current.trimmingSpaces())
        return cells
    }

    /// The alignments of a delimiter row (`| :-- | :-: | --: |`), or nil when it is not one.
    private static func tableDelimiter(_ line: String) -> [String?]? {
        let parts = cells(of: Substring(line))
        guard !parts.isEmpty else { return nil }
        var alignments: [String?] = []
        for part in parts {
            let dashes = part.trimmingCharacters(in: ":")
            guard !dashes.isEmpty, dashes.allSatisfy({ $0 == "-" }) else { return nil }
            switch (part.hasPrefix(":"), part.hasSuffix(":")) {
            case (true, true): alignments.append("center")
            case (true, false): alignments.append("left")
            case (false, true): alignments.append("right")
            default: alignments.append(nil)
            }
        }
        return alignments
    }

    private static func fenceOpening(_ line: Substring) -> (marker: String, info: String)? {
        guard let first = line.first, first == "`" || first == "~" else { return nil }
        let run = line.prefix { $0 == first }
        guard run.count >= 3 else { return nil }
        let info = line.dropFirst(run.count).trimmingSpaces()
        if first == "`" && info.contains("`") { return nil }
        return (String(run), info)
    }

    private static func isFenceClosing(_ line: String, fence: String) -> Bool {
        let trimmed = line.drop { $0 == " " }
        guard line.count - trimmed.count < 4, let first = fence.first else { return false }
        let run = trimmed.prefix { $0 == first }
        return run.count >= fence.count && trimmed.dropFirst(run.count).allSatisfy { $0 == " " }
    }

    private static func atxHeading(_ line: Substring) -> (level: Int, text: Substring)? {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count) else { return nil }
        let rest = line.dropFirst(hashes.count)
        guard rest.isEmpty || rest.first == " " else { return nil }
        var text = Substring(rest.trimmingSpaces())
        // A closing run of #s (after a space) is not part of the text.
        let closing = text.reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let before = text.dropLast(closing)
            if before.isEmpty || before.last == " " { text = Substring(before.trimmingSpaces()) }
        }
        return (hashes.count, text)
    }

    private static func setextLevel(_ line: Substring) -> Int? {
        let text = line.trimmingSpaces()
        guard let first = text.first, first == "=" || first == "-", text.allSatisfy({ $0 == first }) else {
            return nil
        }
        return first == "=" ? 1 : 2
    }

    private static func isThematicBreak(_ line: Substring) -> Bool {
        let marks = line.filter { $0 != " " }
        guard let first = marks.first, first == "-" || first == "*" || first == "_", marks.count >= 3 else {
            return false
        }
        return marks.allSatisfy { $0 == first }
    }

    private static func expandTabs(_ line: String) -> String {
        guard line.contains("\t") else { return line }
        var output = ""
        for character in line {
            if character == "\t" {
                output += String(repeating: " ", count: 4 - output.count % 4)
            } else {
                output.append(character)
            }
        }
        return output
    }

    // MARK: Inlines

    /// A paragraph's lines: a line ending in two spaces or a backslash breaks, others join with a newline.
    private static func inlineLines(_ lines: [String]) -> String {
        var output = ""
        for (position, line) in lines.enumerated() {
            let last = position == lines.count - 1
            if !last && line.hasSuffix("  ") {
                output += inline(Substring(line.trimmingTrailingSpaces())) + "<br>\n"
            } else if !last && line.hasSuffix("\\") {
                output += inline(Substring(line.dropLast())) + "<br>\n"
            } else {
                output += inline(Substring(last ? line.trimmingTrailingSpaces() : line)) + (last ? "" : "\n")
            }
        }
        return output
    }

    /// The HTML of one run of inline Markdown; raw HTML shows as text.
    static func inline(_ text: Substring) -> String {
        let characters = Array(text)
        var output = ""
        renderInline(characters[...], into: &output)
        return output
    }

    private static func renderInline(_ text: ArraySlice<Character>, into output: inout String) {
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "\\":
                if index + 1 < text.endIndex, text[index + 1].isASCII,
                    text[index + 1].isPunctuation || text[index + 1].isSymbol
                {
                    output += HTMLText.escaped(String(text[index + 1]))
                    index += 2
                    continue
                }
            case "`":
                let run = text[index...].prefix { $0 == "`" }.count
                if let close = closingRun(of: "`", count: run, in: text, after: index + run) {
                    var code = String(text[(index + run)..<close]).replacing("\n", with: " ")
                    if code.count >= 2, code.hasPrefix(" "), code.hasSuffix(" "),
                        !code.allSatisfy({ $0 == " " })
                    {
                        code = String(code.dropFirst().dropLast())
                    }
                    output += "<code>" + HTMLText.escaped(code) + "</code>"
                    index = close + run
                    continue
                }
                output += String(repeating: "`", count: run)
                index += run
                continue
            case "!":
                if index + 1 < text.endIndex, text[index + 1] == "[",
                    let link = parseLink(text, at: index + 1)
                {
                    let alt = plainText(text[link.label])
                    if let url = safeURL(link.destination) {
                        output += "<img src=\"\(HTMLText.escaped(url))\" alt=\"\(HTMLText.escaped(alt))\""
                        if let title = link.title { output += " title=\"\(HTMLText.escaped(title))\"" }
                        output += " loading=\"lazy\">"
                    } else {
                        output += HTMLText.escaped(alt)
                    }
                    index = link.end
                    continue
                }
            case "[":
                if let link = parseLink(text, at: index) {
                    var label = ""
                    renderInline(text[link.label], into: &label)
                    if let url = safeURL(link.destination) {
                        output += "<a href=\"\(HTMLText.escaped(url))\""
                        if let title = link.title { output += " title=\"\(HTMLText.escaped(title))\"" }
                        output += ">" + label + "</a>"
                    } else {
                        output += label
                    }
                    index = link.end
                    continue
                }
            case "<":
                if let close = text[index...].firstIndex(of: ">") {
                    let inside = String(text[(index + 1)..<close])
                    if !inside.contains(" "), let url = autolink(inside) {
                        output += "<a href=\"\(HTMLText.escaped(url))\">" + HTMLText.escaped(inside) + "</a>"
                        index = close + 1
                        continue
                    }
                }
            case "*", "_", "~":
                if let span = emphasis(text, at: index) {
                    var inner = ""
                    renderInline(text[span.content], into: &inner)
                    output += "<\(span.tag)>" + inner + "</\(span.tag)>"
                    index = span.end
                    continue
                }
            default:
                break
            }
            output += HTMLText.escaped(String(character))
            index += 1
        }
    }

    private static func closingRun(
        of mark: Character, count: Int, in text: ArraySlice<Character>, after start: Int
    ) -> Int? {
        var index = start
        while index < text.endIndex {
            if text[index] == mark {
                let run = text[index...].prefix { $0 == mark }.count
                if run == count { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }

    private struct Span {
        let tag: String
        let content: Range<Int>
        let end: Int
    }

    /// `**strong**`, `__strong__`, `*em*`, `_em_`, `~~del~~` starting at `start`.
    private static func emphasis(_ text: ArraySlice<Character>, at start: Int) -> Span? {
        let mark = text[start]
        let run = text[start...].prefix { $0 == mark }.count
        let width: Int
        if mark == "~" {
            guard run == 2 else { return nil }
            width = 2
        } else {
            width = run >= 2 ? 2 : 1
        }
        let contentStart = start + width
        guard contentStart < text.endIndex, !text[contentStart].isWhitespace else { return nil }
        // `_` inside a word (snake_case) is not emphasis.
        if mark == "_", start > text.startIndex, text[start - 1].isLetter || text[start - 1].isNumber {
            return nil
        }
        var index = contentStart
        while index < text.endIndex {
            if text[index] == "`" {
                let codeRun = text[index...].prefix { $0 == "`" }.count
                if let close = closingRun(of: "`", count: codeRun, in: text, after: index + codeRun) {
                    index = close + codeRun; continue
                }
            }
            if text[index] == mark {
                let closeRun = text[index...].prefix { $0 == mark }.count
                if closeRun >= width, index > contentStart, !text[index - 1].isWhitespace {
                    let after = index + width
                    if mark == "_", after < text.endIndex, text[after].isLetter || text[after].isNumber {
                        index += closeRun
                        continue
                    }
                    // A single mark must not close on a double one that opens an inner strong span.
                    if width == 1 && closeRun >= 2 && closeRun != 3 {
                        if let inner = emphasis(text, at: index) { index = inner.end; continue }
                    }
                    let tag = mark == "~" ? "del" : width == 2 ? "strong" : "em"
                    return Span(tag: tag, content: contentStart..<index, end: after)
                }
                index += closeRun
                continue
            }
            index += 1
        }
        return nil
    }

    private struct Link {
        let label: Range<Int>
        let destination: String
        let title: String?
        let end: Int
    }

    /// `[label](destination "title")` starting at the `[` at `start`.
    private static func parseLink(_ text: ArraySlice<Character>, at start: Int) -> Link? {
        var depth = 0
        var index = start
        var labelEnd: Int?
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" { index += 2; continue }
            if character == "`" {
                let run = text[index...].prefix { $0 == "`" }.count
                if let close = closingRun(of: "`", count: run, in: text, after: index + run) {
                    index = close + run; continue
                }
            }
            if character == "[" { depth += 1 }
            if character == "]" {
                depth -= 1
                if depth == 0 { labelEnd = index; break }
            }
            index += 1
        }
        guard let labelEnd, labelEnd + 1 < text.endIndex, text[labelEnd + 1] == "(" else { return nil }
        var cursor = labelEnd + 2
        while cursor < text.endIndex, text[cursor] == " " { cursor += 1 }
        var destination = ""
        if cursor < text.endIndex, text[cursor] == "<" {
            guard let close = text[cursor...].firstIndex(of: ">") else { return nil }
            destination = String(text[(cursor + 1)..<close])
            cursor = close + 1
        } else {
            var parens = 0
            while cursor < text.endIndex {
                let character = text[cursor]
                if character == " " { break }
                if character == "(" { parens += 1 }
                if character == ")" {
                    if parens == 0 { break }
                    parens -= 1
                }
                destination.append(character)
                cursor += 1
            }
        }
        while cursor < text.endIndex, text[cursor] == " " { cursor += 1 }
        var title: String?
        if cursor < text.endIndex,
            let quote = text[cursor] == "\"" ? "\"" : text[cursor] == "'" ? "'" : nil as Character?
        {
            guard let close = text[(cursor + 1)...].firstIndex(of: quote) else { return nil }
            title = String(text[(cursor + 1)..<close])
            cursor = close + 1
            while cursor < text.endIndex, text[cursor] == " " { cursor += 1 }
        }
        guard cursor < text.endIndex, text[cursor] == ")" else { return nil }
        return Link(label: (start + 1)..<labelEnd, destination: destination, title: title, end: cursor + 1)
    }

    /// The address when it is safe to follow: a relative one, `#…`, or `http(s):`/`mailto:`.
    static func safeURL(_ destination: String) -> String? {
        let cleaned = destination.filter { !$0.isWhitespace && !($0.asciiValue.map { $0 < 0x20 } ?? false) }
        guard let colon = cleaned.firstIndex(of: ":") else { return cleaned }
        let scheme = cleaned[..<colon]
        // A colon after a slash, `?` or `#` is not a scheme's.
        if scheme.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return cleaned }
        return ["http", "https", "mailto"].contains(scheme.lowercased()) ? cleaned : nil
    }

    private static func autolink(_ inside: String) -> String? {
        let lower = inside.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return inside }
        if inside.contains("@"), !inside.contains(":"), !inside.hasPrefix("@"), !inside.hasSuffix("@") {
            return "mailto:" + inside
        }
        return nil
    }

    private static func plainText(_ text: ArraySlice<Character>) -> String {
        String(text.filter { $0 != "*" && $0 != "_" && $0 != "`" && $0 != "[" && $0 != "]" })
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    fileprivate func trimmingTrailingSpaces() -> String {
        String(String(reversed().drop { $0 == " " }).reversed())
    }

    fileprivate func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }

    fileprivate func trimmingNewlines() -> String {
        String(drop { $0 == "\n" }.reversed().drop { $0 == "\n" }.reversed())
    }
}
