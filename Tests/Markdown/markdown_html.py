"""Our HTML normaliser for comparing Markdown renderers, written for this project after the rules
the CommonMark specification's test suite normalises by: tags and attribute names lowercased,
attributes sorted, entities and character references decoded and re-escaped one way, whitespace
collapsed (kept inside <pre>), whitespace between block-level tags dropped, `<br>` and `<br />`
alike.

On top of that, `normalize(html, ours=True)` undoes this renderer's deliberate differences that
carry no meaning for the comparison: heading ids, the highlighter's `<span class="hl-…">`, the
task item class; and raw HTML (escaped in a `raw-html` element here, omitted by cmark-gfm's safe
mode) becomes the marker cmark-gfm writes.
"""
from html.parser import HTMLParser
import re

BLOCK = {
    "article", "blockquote", "body", "center", "dd", "details", "dir", "div", "dl", "dt", "fieldset", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "li", "menu", "nav",
    "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}
VOID = {"br", "hr", "img", "input", "meta", "link"}
RAW_HTML_MARK = "<!-- raw HTML omitted -->"


def _escape(text, quote=False):
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;") if quote else text


class _Normaliser(HTMLParser):
    def __init__(self, ours):
        super().__init__(convert_charrefs=True)
        self.ours = ours
        self.parts = []
        self.in_pre = 0
        self.skip_stack = []  # per open tag: whether it was dropped (so its end tag is too)
        self.raw_depth = 0

    def _emit(self, piece):
        self.parts.append(piece)

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, selfclosing=False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, selfclosing=True)

    def _start(self, tag, attrs, selfclosing):
        attrs = dict(attrs)
        if self.raw_depth:
            self.raw_depth += 0 if (selfclosing or tag in VOID) else 1
            return
        if self.ours:
            if attrs.get("class") == "raw-html":
                self._emit(RAW_HTML_MARK)
                if tag == "pre":
                    self._emit("\n")
                if not (selfclosing or tag in VOID):
                    self.raw_depth = 1
                return
            if tag == "span" and (attrs.get("class") or "").startswith("hl-"):
                self.skip_stack.append(True)
                return
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                attrs.pop("id", None)
            if tag == "li" and attrs.get("class") == "task":
                attrs.pop("class")
            if tag == "img":
                attrs.pop("loading", None)
        if tag == "pre":
            self.in_pre += 1
        rendered = "<" + tag
        for name in sorted(attrs):
            value = attrs[name]
            rendered += " " + name if value is None else f' {name}="{_escape(value, True)}"'
        rendered += ">"
        self._emit(("\x00B" if tag in BLOCK else "") + rendered)
        if not (selfclosing or tag in VOID):
            self.skip_stack.append(False)

    def handle_endtag(self, tag):
        if self.raw_depth:
            self.raw_depth -= 1
            return
        if tag in VOID:
            return
        if self.skip_stack and self.skip_stack.pop():
            return
        if tag == "pre":
            self.in_pre = max(0, self.in_pre - 1)
        self._emit(("\x00B" if tag in BLOCK else "") + f"</{tag}>")

    def handle_data(self, data):
        if self.raw_depth:
            return
        if not self.in_pre:
            data = re.sub(r"\s+", " ", data)
        self._emit(_escape(data))

    def handle_comment(self, data):
        if not self.raw_depth:
            self._emit(f"<!--{data}-->")


def normalize(html, ours=False):
    parser = _Normaliser(ours)
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts)
    # Whitespace next to a block-level tag carries no meaning (outside <pre>, where it was kept
    # as is but never sits next to a block tag except the pre's own).
    pieces = text.split("\x00B")
    out = []
    for index, piece in enumerate(pieces):
        if index > 0:
            piece = piece.lstrip(" \n")
            # the tag itself ends at the first '>'
            end = piece.find(">") + 1
            tag, rest = piece[:end], piece[end:]
            if not tag.startswith("<pre") and not rest.startswith("<code"):
                rest = rest.lstrip(" \n") if not tag.startswith("<pre") else rest
            piece = tag + rest
        if index + 1 < len(pieces) and not piece.endswith("</pre>"):
            # text before a block tag: trailing whitespace dropped unless inside pre
            if "<pre" not in piece[-200:] or "</pre>" in piece[-200:]:
                piece = piece.rstrip(" \n")
        out.append(piece)
    text = "".join(out)
    text = text.replace(RAW_HTML_MARK + "\n", RAW_HTML_MARK)
    return text.strip()
