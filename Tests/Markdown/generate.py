"""Seeded random Markdown documents for the differential test: mixes of every construct the
CommonMark and GFM specifications cover, nested in awkward ways (lists in quotes in lists, lazy
lines, tabs, emphasis across links, unclosed brackets and code spans, tables in quotes)."""
import random

WORDS = ["alpha", "beta", "gamma", "note", "file", "x", "y", "foo", "bar", "déjà", "naïve", "日本", "a1", "snake_case",
         "2*3", "a-b", "it's", "(paren)", "end."]
URLS = ["http://example.com", "https://example.com/a_b?c=1&d=2", "/relative/path.md", "notes.md#top", "mailto:a@b.co",
        "https://例え.jp/パス", "<https://x.y/a b>", "https://example.com/(x)", "foo%20bar", "#frag", "../up.md", ""]
TITLES = ['"Title"', "'single'", "(paren)", '"with \\" quote"', '"a &amp; b"']
LANGS = ["", "swift", "py", "js", "text", "c++", "nothing", "sh {.class}"]


class Generator:
    def __init__(self, seed):
        self.random = random.Random(seed)
        self.labels = []
        self.footnotes = []

    def pick(self, items):
        return self.random.choice(items)

    def chance(self, p):
        return self.random.random() < p

    # Inlines

    def word(self):
        return self.pick(WORDS)

    def inline(self, depth=0):
        r = self.random.random()
        if depth > 2 or r < 0.35:
            return " ".join(self.word() for _ in range(self.random.randint(1, 3)))
        choices = [
            lambda: f"*{self.inline(depth + 1)}*",
            lambda: f"_{self.inline(depth + 1)}_",
            lambda: f"**{self.inline(depth + 1)}**",
            lambda: f"__{self.inline(depth + 1)}__",
            lambda: f"***{self.inline(depth + 1)}***",
            lambda: f"~~{self.inline(depth + 1)}~~",
            lambda: f"~{self.word()}~",
            lambda: f"`{self.word()}`",
            lambda: f"`` a ` b ``",
            lambda: f"[{self.inline(depth + 1)}]({self.pick(URLS)}{' ' + self.pick(TITLES) if self.chance(0.3) else ''})",
            lambda: f"![{self.inline(depth + 1)}]({self.pick(URLS)})",
            lambda: f"[{self.inline(depth + 1)}][{self.label()}]",
            lambda: f"[{self.label()}]",
            lambda: f"[{self.label()}][]",
            lambda: f"<{self.pick(['http://a.b/c', 'https://x.org', 'me@example.com', 'mailto:x@y.z'])}>",
            lambda: self.pick(["www.example.com", "https://github.com/x/y.", "www.a.b/c(d))", "x@y.com",
                               "http://a.b/?q=1&amp;", "(www.paren.org)", "ftp-files.org/a"]),
            lambda: self.pick(["&amp;", "&copy;", "&#35;", "&#x1F600;", "&nbsp;", "&bogus;", "&", "&#0;"]),
            lambda: self.pick(["\\*", "\\_", "\\[", "\\`", "\\\\", "\\a", "\\~", "\\|"]),
            lambda: self.pick(["*", "_", "**", "[", "]", "![", "`", "``", "<", ">", "~", "~~~", "!"]),
            lambda: self.pick(["<b>bold</b>", "<!-- c -->", "<span class=\"x\">", "</em>", "<a href='y'>"]),
            lambda: f"[^{self.footnote()}]",
            lambda: f"{self.word()}*{self.word()}*{self.word()}",
            lambda: f"{self.word()}_{self.word()}_{self.word()}",
        ]
        return self.pick(choices)()

    def text(self, lines=None):
        lines = lines or self.random.randint(1, 3)
        out = []
        for _ in range(lines):
            parts = [self.inline() for _ in range(self.random.randint(1, 4))]
            line = " ".join(parts)
            if self.chance(0.1):
                line += "  "
            elif self.chance(0.05):
                line += "\\"
            out.append(line)
        return "\n".join(out)

    def label(self):
        if not self.labels or self.chance(0.3):
            self.labels.append(self.pick(["foo", "Bar", "a b", "ünï", "x*y", "Baz  Qux"]))
        return self.pick(self.labels)

    def footnote(self):
        if not self.footnotes or self.chance(0.4):
            self.footnotes.append(self.pick(["1", "2", "note", "long-name", "x"]))
        return self.pick(self.footnotes)

    # Blocks

    def block(self, depth=0):
        r = self.random.random()
        kinds = ["para", "para", "heading", "setext", "fence", "indented", "hr", "list", "olist", "quote", "table",
                 "def", "task", "html", "footdef"]
        kind = self.pick(kinds) if depth < 3 else self.pick(["para", "heading", "fence", "hr"])
        if kind == "para":
            return self.text()
        if kind == "heading":
            return "#" * self.random.randint(1, 7) + " " + self.inline() + (" ##" if self.chance(0.2) else "")
        if kind == "setext":
            return self.text(self.random.randint(1, 2)) + "\n" + self.pick(["===", "---", "  ---  "])
        if kind == "fence":
            fence = self.pick(["```", "~~~", "````"])
            body = "\n".join(self.pick(["let x = 1", "if a < b { }", "# not a heading", "\tindented", "", "  *x*"])
                             for _ in range(self.random.randint(0, 3)))
            close = fence if self.chance(0.9) else ""
            return f"{fence}{self.pick(LANGS)}\n{body}\n{close}".rstrip("\n")
        if kind == "indented":
            return "\n".join("    " + self.pick(["code", "a < b", "  more", "*x*"]) for _ in range(self.random.randint(1, 3)))
        if kind == "hr":
            return self.pick(["---", "***", "* * *", "___", "- - -"])
        if kind in ("list", "olist", "task"):
            marker = self.pick(["-", "*", "+"]) if kind != "olist" else self.pick(["1.", "2)", "10."])
            items = []
            for index in range(self.random.randint(1, 4)):
                content = self.block(depth + 1)
                if kind == "task":
                    content = self.pick(["[ ] ", "[x] ", "[X] ", "[ ]"]) + content
                m = marker if kind != "olist" else marker.replace(marker.rstrip(".)"), str(index + int(marker.rstrip('.)'))))
                pad = " " * (len(m) + 1)
                lines = content.split("\n")
                body = [f"{m} {lines[0]}"] + [(pad + line if line and not self.chance(0.1) else line) for line in lines[1:]]
                if self.chance(0.3):
                    sub = self.block(depth + 1).split("\n")
                    body += [""] if self.chance(0.5) else []
                    body += [pad + line if line else line for line in sub]
                items.append("\n".join(body))
            return ("\n\n" if self.chance(0.3) else "\n").join(items)
        if kind == "quote":
            inner = self.block(depth + 1).split("\n")
            out = []
            for i, line in enumerate(inner):
                if i > 0 and self.chance(0.15):
                    out.append(line)  # lazy
                else:
                    out.append(("> " if self.chance(0.9) else ">") + line)
            return "\n".join(out)
        if kind == "table":
            columns = self.random.randint(1, 4)
            head = "| " + " | ".join(self.inline(2) for _ in range(columns)) + " |"
            delim = "|" + "|".join(self.pick(["---", ":--", "--:", ":-:", " - "]) for _ in range(columns)) + "|"
            rows = []
            for _ in range(self.random.randint(0, 3)):
                cells = [self.pick(["a", "`c|d`", "x \\| y", "**b**", "", "1"]) for _ in range(self.random.randint(1, columns + 1))]
                rows.append(("| " if self.chance(0.8) else "") + " | ".join(cells) + (" |" if self.chance(0.7) else ""))
            return "\n".join([head, delim] + rows)
        if kind == "def":
            title = (" " + self.pick(TITLES)) if self.chance(0.4) else ""
            return f"[{self.label()}]: {self.pick(URLS) or '<>'}{title}"
        if kind == "html":
            return self.pick(["<div>\n*text*\n</div>", "<!-- comment -->", "<pre>\nx\n</pre>", "<custom-tag>",
                              "<details>\n<summary>s</summary>\n\nbody\n</details>"])
        if kind == "footdef":
            return f"[^{self.footnote()}]: {self.text(1)}" + ("\n    " + self.text(1) if self.chance(0.3) else "")
        return self.text()

    def document(self):
        blocks = [self.block() for _ in range(self.random.randint(1, 8))]
        out = ""
        for block in blocks:
            out += block + self.pick(["\n\n", "\n\n", "\n", "\n\n\n"])
        if self.chance(0.1):
            out = out.replace("    ", "\t")
        return out


def documents(count, seed=26):
    return [Generator(seed * 100003 + index).document() for index in range(count)]
