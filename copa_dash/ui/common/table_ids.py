"""Long ids in tables: one line, ellipsised, the full name on hover.

A model's name can be 60+ characters (``org/model-name-v2-instruct-...``); wrapped, it made a
table row four or five lines high. Every page's table shows such an id column on one line,
cut with an ellipsis at :data:`ID_WIDTH_PX`, and the full text on hover:

- DataTables (Rankings, Systems, Val -> test, Upload): :func:`id_cell_styles` goes into
  ``style_cell_conditional`` and :func:`id_tooltips` gives the ``tooltip_data`` the page's
  callback returns with the rows (DataTable cells take no ``title`` attribute);
- HTML tables (Explore's ranked table, built on the server as one string):
  :func:`id_cell_html` is the cell, with the ``id-cell`` class (``assets/style.css``) and
  the full name in its ``title`` attribute.
"""

from __future__ import annotations

from html import escape

ID_WIDTH_PX = 260
ID_CLASS = "id-cell"
TOOLTIP_ARGS = {"tooltip_delay": 300, "tooltip_duration": None}


def id_cell_styles(*column_ids: str, width: int = ID_WIDTH_PX) -> list[dict]:
    """``style_cell_conditional`` entries: each of ``column_ids`` on one line, cut with an
    ellipsis at ``width`` pixels, left-aligned."""
    style = {"maxWidth": f"{width}px", "minWidth": "80px", "whiteSpace": "nowrap",
             "overflow": "hidden", "textOverflow": "ellipsis", "textAlign": "left"}
    return [{"if": {"column_id": column}, **style} for column in column_ids]


def id_tooltips(records: list[dict], *column_ids: str, tooltips: list[dict] | None = None,
                longer_than: int = 24) -> list[dict]:
    """``tooltip_data`` with the full text of each id longer than ``longer_than`` characters
    (shorter ones are shown whole), merged into ``tooltips`` (the page's own, if any).

    Examples
    --------
    >>> id_tooltips([{"id": "x" * 30}, {"id": "short"}], "id")[0]["id"]["value"] == "x" * 30
    True
    """
    out = [dict(t) for t in tooltips] if tooltips else [{} for _ in records]
    for tips, record in zip(out, records):
        for column in column_ids:
            text = "" if record.get(column) is None else str(record[column])
            if len(text) > longer_than:
                tips[column] = {"value": text, "type": "text"}
    return out


def id_cell_html(text, inner: str) -> str:
    """An HTML table cell of an id: ``inner`` (already escaped markup) on one line,
    ellipsised, with ``text`` (escaped here) as its ``title``."""
    full = escape(" ".join(str(text).splitlines()), quote=True)
    return f'<td class="{ID_CLASS}" title="{full}">{inner}</td>'
