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
    /// Where the renderer's few choices come from.
    public enum Flavor: Sendable {
        /// As GitHub shows a note (the viewer's): addresses with a scheme other than http,
        /// https and mailto dropped, a strong emphasis right inside another written once.
        case github
        /// As the CommonMark specification's examples expect: addresses of every scheme kept
        /// (they use made-up ones), nested strong emphasis nested. Raw HTML stays escaped.
        case specification
    }

    /// The HTML of `markdown`.
    public static func html(_ markdown: String, flavor: Flavor = .github) -> String {
        let parser = MarkdownParser(markdown)
        var inlines = InlineParser(parser)
        inlines.parseAll()
        var writer = HTMLWriter(inlines, flavor: flavor)
        return writer.write()
    }
}
