/// Renders Markdown to HTML for the web UI's viewer, following the CommonMark specification
/// (0.31) and GitHub's extensions: tables, strikethrough, task lists, extended autolinks and
/// footnotes, with the output GitHub's own renderer (cmark-gfm) gives.
///
/// Deliberate differences, so that a Markdown file cannot run script and reads well on a phone:
/// - raw HTML is never passed through: it is shown as text (`<span class="raw-html">` inline,
///   `<pre class="raw-html">` for an HTML block);
/// - a link or image whose address has a scheme other than `http`, `https` or `mailto`
///   (`javascript:`, `data:`, …) keeps its text and loses its address (relative ones stay);
/// - headings carry ids (`## Read me` → `id="read-me"`) for links within a note;
/// - fenced code in a language the server knows is highlighted (`Preview.SyntaxHighlighter`).
///
/// Parsing is linear in the input and uses no recursion, so no document can hang it or
/// overflow its stack.
///
/// ```swift
/// MarkdownRenderer.html("# Notes\n\n- [x] done\n- [ ] *todo*")
/// ```
public enum MarkdownRenderer {
    /// The HTML of `markdown`.
    public static func html(_ markdown: String) -> String {
        html(markdown, keepsEveryScheme: false)
    }

    /// The HTML of `markdown`; `keepsEveryScheme` keeps link and image addresses of any scheme
    /// (the specification's own examples use made-up schemes, and are measured that way).
    /// Raw HTML stays escaped either way.
    public static func html(_ markdown: String, keepsEveryScheme: Bool) -> String {
        let parser = MarkdownParser(markdown)
        var inlines = InlineParser(parser)
        inlines.parseAll()
        var writer = HTMLWriter(inlines, keepsEveryScheme: keepsEveryScheme)
        return writer.write()
    }
}
