import Preview
import Testing

@Suite("Markdown rendered for the viewer")
struct MarkdownRendererTests {
    @Test("headings, paragraphs with breaks, emphasis, strong, strikethrough and code spans")
    func basics() {
        #expect(
            MarkdownRenderer.html("# Title #\n\nSome *text* and **bold**, ~~gone~~, `a < b`.")
                == "<h1 id=\"title\">Title</h1>\n<p>Some <em>text</em> and <strong>bold</strong>, <del>gone</del>, <code>a &lt; b</code>.</p>\n"
        )
        #expect(MarkdownRenderer.html("one  \ntwo\nthree") == "<p>one<br />\ntwo\nthree</p>\n")
        #expect(
            MarkdownRenderer.html("Sub\n===\n\nSmaller\n---")
                == "<h1 id=\"sub\">Sub</h1>\n<h2 id=\"smaller\">Smaller</h2>\n")
        #expect(
            MarkdownRenderer.html("snake_case_name and _em_") == "<p>snake_case_name and <em>em</em></p>\n")
        #expect(
            MarkdownRenderer.html("**bold *and em* inside**")
                == "<p><strong>bold <em>and em</em> inside</strong></p>\n")
        #expect(MarkdownRenderer.html("\\*not em\\* and 2 * 3 * 4") == "<p>*not em* and 2 * 3 * 4</p>\n")
        #expect(MarkdownRenderer.html("***") == "<hr />\n")
    }

    @Test("fenced and indented code keep their text, escaped, with the language as a class")
    func code() {
        #expect(
            MarkdownRenderer.html("```swift\nlet x = a < b && c\n```")
                == "<pre><code class=\"language-swift\"><span class=\"hl-k\">let</span> x = a &lt; b &amp;&amp; c\n</code></pre>\n"
        )
        #expect(
            MarkdownRenderer.html("```py\n# note\n```")
                == "<pre><code class=\"language-py\"><span class=\"hl-c\"># note</span>\n</code></pre>\n")
        #expect(
            MarkdownRenderer.html("```nothing-known\n<b>\n```")
                == "<pre><code class=\"language-nothing-known\">&lt;b&gt;\n</code></pre>\n")
        #expect(
            MarkdownRenderer.html("~~~\n# not a heading\n~~~")
                == "<pre><code># not a heading\n</code></pre>\n")
        #expect(
            MarkdownRenderer.html("    indented\n    code") == "<pre><code>indented\ncode\n</code></pre>\n")
    }

    @Test("bullet, ordered, nested and task lists; block quotes")
    func lists() {
        #expect(
            MarkdownRenderer.html("- one\n- two\n  - nested\n- three")
                == "<ul>\n<li>one</li>\n<li>two\n<ul>\n<li>nested</li>\n</ul>\n</li>\n<li>three</li>\n</ul>\n"
        )
        #expect(MarkdownRenderer.html("3. c\n4. d") == "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n")
        #expect(
            MarkdownRenderer.html("- [x] done\n- [ ] *todo*")
                == "<ul>\n<li class=\"task\"><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>\n<li class=\"task\"><input type=\"checkbox\" disabled=\"\" /> <em>todo</em></li>\n</ul>\n"
        )
        #expect(
            MarkdownRenderer.html("> quoted **text**\n> more")
                == "<blockquote>\n<p>quoted <strong>text</strong>\nmore</p>\n</blockquote>\n")
    }

    @Test("tables with alignment, escaped pipes in cells, missing cells filled, extra ones dropped")
    func tables() {
        let html = MarkdownRenderer.html(
            "| Name | Size | Kind |\n|:-----|-----:|:----:|\n| a \\| b | 10 | `x\\|y` |\n| c | 2 |\n| d | 3 | k | extra |"
        )
        #expect(
            html == """
                <table>
                <thead>
                <tr>
                <th align="left">Name</th>
                <th align="right">Size</th>
                <th align="center">Kind</th>
                </tr>
                </thead>
                <tbody>
                <tr>
                <td align="left">a | b</td>
                <td align="right">10</td>
                <td align="center"><code>x|y</code></td>
                </tr>
                <tr>
                <td align="left">c</td>
                <td align="right">2</td>
                <td align="center"></td>
                </tr>
                <tr>
                <td align="left">d</td>
                <td align="right">3</td>
                <td align="center">k</td>
                </tr>
                </tbody>
                </table>

                """)
    }

    @Test("links, images and autolinks; a script-bearing address keeps its text and loses the address")
    func links() {
        #expect(
            MarkdownRenderer.html("[the *site*](https://example.com/a?b=1&c=2 \"Title\")")
                == "<p><a href=\"https://example.com/a?b=1&amp;c=2\" title=\"Title\">the <em>site</em></a></p>\n"
        )
        #expect(
            MarkdownRenderer.html("![a cat](cat%201.png)")
                == "<p><img src=\"cat%201.png\" alt=\"a cat\" loading=\"lazy\" /></p>\n")
        #expect(
            MarkdownRenderer.html("<https://example.com> <me@example.com>")
                == "<p><a href=\"https://example.com\">https://example.com</a> <a href=\"mailto:me@example.com\">me@example.com</a></p>\n"
        )
        #expect(MarkdownRenderer.html("[click](javascript:alert(1))") == "<p>click</p>\n")
        #expect(MarkdownRenderer.html("[x](JaVaScRiPt:alert(1))") == "<p>x</p>\n")
        #expect(!MarkdownRenderer.html("[x](java\tscript:alert(1))").contains("href"))
        #expect(!MarkdownRenderer.html("[x](JaVaScRiPt :alert(1))").contains("href"))
        #expect(MarkdownRenderer.html("![x](data:image/svg+xml;base64,AAAA)") == "<p>x</p>\n")
        #expect(MarkdownRenderer.html("[rel](docs/a:b.md)") == "<p><a href=\"docs/a:b.md\">rel</a></p>\n")
    }

    @Test("raw HTML is never passed through: it shows as text")
    func rawHTML() {
        let hostile = [
            "<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
            "<iframe src=\"https://evil\"></iframe>",
            "text <b onclick=alert(1)>bold</b>", "```\n</code></pre><script>x</script>\n```",
            "[a](https://x\" onmouseover=\"alert(1))",
            "![a\" onerror=\"alert(1)](b.png)", "| <script> |\n|---|\n| x |",
        ]
        for markdown in hostile {
            let html = MarkdownRenderer.html(markdown)
            #expect(
                !html.contains("<script") && !html.contains("<img src=x") && !html.contains("<iframe")
                    && !html.contains("<b "), "\(markdown) → \(html)")
            #expect(!html.contains("\" onmouseover") && !html.contains("\" onerror"), "\(markdown) → \(html)")
        }
        #expect(
            MarkdownRenderer.html("<script>alert(1)</script>")
                == "<pre class=\"raw-html\">&lt;script&gt;alert(1)&lt;/script&gt;</pre>\n")
        #expect(
            MarkdownRenderer.html("a <b onclick=\"x\">bold</b>")
                == "<p>a <span class=\"raw-html\">&lt;b onclick=&quot;x&quot;&gt;</span>bold<span class=\"raw-html\">&lt;/b&gt;</span></p>\n"
        )
    }

    @Test("awkward input never crashes: unclosed marks, lone brackets, tabs, CRLF, a long file")
    func robustness() {
        for markdown in [
            "*", "**", "`", "[", "](", "[a](", "![", "<", "|", "- ", "1.", "> ", "```", "~~x",
            "\t- a\r\n\t\t- b", "#######",
        ] {
            _ = MarkdownRenderer.html(markdown)
        }
        let long = String(repeating: "- item *with* `code` and [a link](x.md)\n", count: 5_000)
        #expect(MarkdownRenderer.html(long).ranges(of: "<li>").count == 5_000)
    }
}
