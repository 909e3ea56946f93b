import Preview
import Testing

/// Our own cases, per section of the CommonMark specification and GitHub's extensions: what a
/// note written in any Markdown editor shows. (The specification's own examples are measured
/// by Scripts/markdown-spec against a copy kept outside the repository.)
@Suite("Markdown follows CommonMark and GitHub, section by section")
struct MarkdownSpecificationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let section: String
        let markdown: String
        let html: String
        var testDescription: String { "\(section): \(markdown.debugDescription)" }
    }

    static let cases: [Case] = [
        Case(section: "tabs", markdown: "\tcode\there", html: "<pre><code>code\there\n</code></pre>\n"),
        Case(
            section: "tabs", markdown: "-\titem\n\n\t\tcode",
            html: "<ul>\n<li>\n<p>item</p>\n<pre><code>code\n</code></pre>\n</li>\n</ul>\n"),
        Case(
            section: "thematic breaks", markdown: "para\n- - -\nnext",
            html: "<p>para</p>\n<hr />\n<p>next</p>\n"),
        Case(section: "thematic breaks", markdown: "_ _ _ _", html: "<hr />\n"),
        Case(section: "ATX headings", markdown: "### Notes ###   ", html: "<h3 id=\"notes\">Notes</h3>\n"),
        Case(section: "ATX headings", markdown: "#hashtag", html: "<p>#hashtag</p>\n"),
        Case(
            section: "setext headings", markdown: "Two\nlines\n---",
            html: "<h2 id=\"two-lines\">Two\nlines</h2>\n"),
        Case(
            section: "headings", markdown: "# Read me\n## Read me!",
            html: "<h1 id=\"read-me\">Read me</h1>\n<h2 id=\"read-me-1\">Read me!</h2>\n"),
        Case(
            section: "indented code", markdown: "    a\n\n\n    b\n\n",
            html: "<pre><code>a\n\n\nb\n</code></pre>\n"),
        Case(
            section: "fenced code", markdown: "````\n```\nstill code\n````",
            html: "<pre><code>```\nstill code\n</code></pre>\n"),
        Case(
            section: "fenced code", markdown: "  ~~~\n  indented\n    more\n  ~~~",
            html: "<pre><code>indented\n  more\n</code></pre>\n"),
        Case(
            section: "link reference definitions", markdown: "[Home]: </my home> 'Start'\n\nGo [home].",
            html: "<p>Go <a href=\"/my%20home\" title=\"Start\">home</a>.</p>\n"),
        Case(
            section: "link reference definitions", markdown: "[a]: /first\n[A]: /second\n\n[a]",
            html: "<p><a href=\"/first\">a</a></p>\n"),
        Case(section: "paragraphs", markdown: "  one\n    two", html: "<p>one\ntwo</p>\n"),
        Case(
            section: "block quotes", markdown: "> quote\nlazy line\n> > inner",
            html:
                "<blockquote>\n<p>quote\nlazy line</p>\n<blockquote>\n<p>inner</p>\n</blockquote>\n</blockquote>\n"
        ),
        Case(
            section: "list items", markdown: "1.  wide\n\n    still in it",
            html: "<ol>\n<li>\n<p>wide</p>\n<p>still in it</p>\n</li>\n</ol>\n"),
        Case(section: "list items", markdown: "-\n  later", html: "<ul>\n<li>later</li>\n</ul>\n"),
        Case(
            section: "lists", markdown: "- a\n- b\n\n- c",
            html: "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n</ul>\n"),
        Case(
            section: "lists", markdown: "- a\n+ b", html: "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n"
        ),
        Case(
            section: "lists", markdown: "The year\n2024. was long", html: "<p>The year\n2024. was long</p>\n"),
        Case(section: "backslash escapes", markdown: "\\# not \\*em\\* \\q", html: "<p># not *em* \\q</p>\n"),
        Case(
            section: "entities", markdown: "&copy; &#169; &#xA9; &nope; &#0;",
            html: "<p>© © © &amp;nope; \u{FFFD}</p>\n"),
        Case(
            section: "code spans", markdown: "`` a`b `` and ` `` `",
            html: "<p><code>a`b</code> and <code>``</code></p>\n"),
        Case(section: "code spans", markdown: "`one\ntwo`", html: "<p><code>one two</code></p>\n"),
        Case(section: "emphasis", markdown: "*a **b** c*", html: "<p><em>a <strong>b</strong> c</em></p>\n"),
        Case(section: "emphasis", markdown: "***both***", html: "<p><em><strong>both</strong></em></p>\n"),
        Case(section: "emphasis", markdown: "*a**b*", html: "<p><em>a**b</em></p>\n"),
        Case(
            section: "emphasis", markdown: "foo*bar*baz and foo_bar_baz",
            html: "<p>foo<em>bar</em>baz and foo_bar_baz</p>\n"),
        Case(section: "emphasis", markdown: "**not closed* here", html: "<p>*<em>not closed</em> here</p>\n"),
        Case(
            section: "links", markdown: "[a](<b c> \"t\") [d](e(f)g)",
            html: "<p><a href=\"b%20c\" title=\"t\">a</a> <a href=\"e(f)g\">d</a></p>\n"),
        Case(
            section: "links", markdown: "[outer [inner](/i)](/o)",
            html: "<p>[outer <a href=\"/i\">inner</a>](/o)</p>\n"),
        Case(
            section: "links", markdown: "[x]: /u\n\n[text][x] [x][] [x]",
            html: "<p><a href=\"/u\">text</a> <a href=\"/u\">x</a> <a href=\"/u\">x</a></p>\n"),
        Case(
            section: "links", markdown: "[a](/p\\)q) [b](/&auml;)",
            html: "<p><a href=\"/p)q\">a</a> <a href=\"/%C3%A4\">b</a></p>\n"),
        Case(
            section: "images", markdown: "![a *b*](/i.png \"T\")",
            html: "<p><img src=\"/i.png\" alt=\"a b\" title=\"T\" loading=\"lazy\" /></p>\n"),
        Case(
            section: "images", markdown: "[![logo](/l.png)](/home)",
            html: "<p><a href=\"/home\"><img src=\"/l.png\" alt=\"logo\" loading=\"lazy\" /></a></p>\n"),
        Case(
            section: "autolinks", markdown: "<https://a.example/b?c> <a@b.example>",
            html:
                "<p><a href=\"https://a.example/b?c\">https://a.example/b?c</a> <a href=\"mailto:a@b.example\">a@b.example</a></p>\n"
        ),
        Case(
            section: "raw HTML", markdown: "a <!-- note --> b",
            html: "<p>a <span class=\"raw-html\">&lt;!-- note --&gt;</span> b</p>\n"),
        Case(section: "hard line breaks", markdown: "a\\\nb  \nc", html: "<p>a<br />\nb<br />\nc</p>\n"),
        Case(section: "soft line breaks", markdown: "a \nb", html: "<p>a\nb</p>\n"),
        Case(
            section: "tables", markdown: "a | b\n--|--\n1 | 2\n\nafter",
            html:
                "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n<p>after</p>\n"
        ),
        Case(section: "tables", markdown: "| a | b |\n| - |\n", html: "<p>| a | b |\n| - |</p>\n"),
        Case(
            section: "tables", markdown: "| a |\n| - |\n> quote",
            html:
                "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n</table>\n<blockquote>\n<p>quote</p>\n</blockquote>\n"
        ),
        Case(
            section: "strikethrough", markdown: "~one~ ~~two~~ ~~~three~~~",
            html: "<p><del>one</del> <del>two</del> ~~~three~~~</p>\n"),
        Case(
            section: "task lists", markdown: "- [ ] open\n- [x] done\n- [ ]not a task",
            html:
                "<ul>\n<li class=\"task\"><input type=\"checkbox\" disabled=\"\" /> open</li>\n<li class=\"task\"><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>\n<li>[ ]not a task</li>\n</ul>\n"
        ),
        Case(
            section: "extended autolinks",
            markdown: "See www.example.com/a_(b). Or https://x.org/?q=1, me@mail.example.",
            html:
                "<p>See <a href=\"http://www.example.com/a_(b)\">www.example.com/a_(b)</a>. Or <a href=\"https://x.org/?q=1\">https://x.org/?q=1</a>, <a href=\"mailto:me@mail.example\">me@mail.example</a>.</p>\n"
        ),
        Case(
            section: "extended autolinks", markdown: "[www.inside.org](/x)",
            html: "<p><a href=\"/x\">www.inside.org</a></p>\n"),
        Case(
            section: "footnotes", markdown: "Text[^n] again[^n].\n\n[^n]: The *note*.",
            html:
                "<p>Text<sup class=\"footnote-ref\"><a href=\"#fn-n\" id=\"fnref-n\" data-footnote-ref>1</a></sup> again<sup class=\"footnote-ref\"><a href=\"#fn-n\" id=\"fnref-n-2\" data-footnote-ref>1</a></sup>.</p>\n<section class=\"footnotes\" data-footnotes>\n<ol>\n<li id=\"fn-n\">\n<p>The <em>note</em>. <a href=\"#fnref-n\" class=\"footnote-backref\" data-footnote-backref data-footnote-backref-idx=\"1\" aria-label=\"Back to reference 1\">↩</a> <a href=\"#fnref-n-2\" class=\"footnote-backref\" data-footnote-backref data-footnote-backref-idx=\"1-2\" aria-label=\"Back to reference 1-2\">↩<sup class=\"footnote-ref\">2</sup></a></p>\n</li>\n</ol>\n</section>\n"
        ),
        Case(section: "footnotes", markdown: "No such[^x].", html: "<p>No such[^x].</p>\n"),
        Case(section: "line endings", markdown: "a\r\nb\rc", html: "<p>a\nb\nc</p>\n"),
        Case(section: "insecure characters", markdown: "a\u{0}b", html: "<p>a\u{FFFD}b</p>\n"),
    ]

    @Test("each construct renders as CommonMark and GitHub have it", arguments: cases)
    func construct(_ example: Case) {
        #expect(MarkdownRenderer.html(example.markdown) == example.html)
    }

    @Test("the specification's flavour keeps every scheme and nests strong emphasis; GitHub's does not")
    func flavors() {
        #expect(MarkdownRenderer.html("<irc://chat/room>") == "<p>irc://chat/room</p>\n")
        #expect(
            MarkdownRenderer.html("<irc://chat/room>", flavor: .specification)
                == "<p><a href=\"irc://chat/room\">irc://chat/room</a></p>\n")
        #expect(MarkdownRenderer.html("<script>", flavor: .specification).contains("&lt;script&gt;"))
        #expect(MarkdownRenderer.html("****both****") == "<p><strong>both</strong></p>\n")
        #expect(
            MarkdownRenderer.html("****both****", flavor: .specification)
                == "<p><strong><strong>both</strong></strong></p>\n")
    }
}
