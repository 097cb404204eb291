"""Reads server-made HTML back the way a browser shows it, with the standard library's parser
(not the code that wrote it): table cells as text, and which tags a text sits in."""

from __future__ import annotations

from html.parser import HTMLParser


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.tags: list[str] = []           # every start tag met, in order
        self.code: list[str] = []           # the text of each <code>
        self._cell: list[str] | None = None
        self._code: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "code":
            self._code = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "code" and self._code is not None:
            self.code.append("".join(self._code))
            self._code = None

    def handle_data(self, data):
        for part in (self._cell, self._code):
            if part is not None:
                part.append(data)


def read(markup: str) -> _Cells:
    """The parsed ``markup``: ``rows`` (each a list of cell texts, header row first),
    ``code`` (the texts shown as code) and ``tags`` (every start tag)."""
    parser = _Cells()
    parser.feed(markup)
    parser.close()
    return parser
