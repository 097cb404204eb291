"""The Datasets page's catalogue: one compact, searchable, sortable table of every dataset the
user can open (bundled, their own uploads, shared ones); a click on a row opens the explorer.

The table is dash's own ``dash_table.DataTable`` (native sorting on the column headers); the
search box filters on the server with :func:`copa_dash.services.catalog.search_catalog`, so
one box searches every text of a row (name, field, source, what you can learn) at once.
"""

from __future__ import annotations

from dash import Input, Output, State, dash_table, dcc, html
from dash.exceptions import PreventUpdate

from copa_dash.services.catalog import CatalogEntry, catalog, search_catalog, with_my_uploads
from copa_dash.services.uploads import my_uploads
from copa_dash.services.views.links import dataset_link
from copa_dash.ui.common.my_uploads import MY_UPLOADS
from copa_dash.ui.common.settings_access import current_settings
from copa_dash.ui.common.signed_in import signed_in_groups, signed_in_user
from copa_dash.ui.features.datasets.ids import DatasetsIds as ID

COLUMNS = (  # (id, header, width in px): the whole table fits the 1360 px page
    ("title", "Dataset", 230), ("learn", "What you can learn here", 455),
    ("domain", "Field", 120), ("n_rows", "Rows", 64), ("n_objectives", "Objectives", 94),
    ("source", "Source", 160), ("date", "Date", 92), ("origin", "Listed as", 92))
FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'  # the app's (style.css)


def rows(entries: list[CatalogEntry]) -> tuple[list[dict], list[dict]]:
    """The table's ``data`` (``id`` is the dataset reference) and ``tooltip_data``."""
    data = [{"id": e.ref, "title": _title_link(e), "learn": e.learn, "domain": e.domain,
             "n_rows": e.n_rows, "n_objectives": e.n_objectives, "source": e.source,
             "date": e.date, "origin": e.origin} for e in entries]
    tips = [{"title": {"value": f"{e.ref}: {e.description}", "type": "text"}}
            for e in entries]
    return data, tips


def _title_link(entry: CatalogEntry) -> str:
    """The dataset's name as a Markdown link to the explorer: a real link, so keyboard users
    reach it with Tab and Enter (a row click only works with a pointer) and it can be opened
    in a new tab."""
    title = entry.title.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")
    return f"[{title}]({explore_href(entry.ref)})"


def explore_href(ref: str) -> str:
    """The explorer's address for dataset ``ref``."""
    return dataset_link("explore", str(ref))


def count_text(shown: int, total: int, query: str | None) -> str:
    """``"23 datasets"``, ``"3 of 23 datasets match 'pacs'"`` or the no-match advice."""
    if not (query or "").strip():
        return f"{total} datasets: click a row to explore it, a column header to sort."
    if not shown:
        return f"No dataset matches {query.strip()!r}: try fewer or other words."
    return f"{shown} of {total} datasets match {query.strip()!r}: click a row to explore it."


def catalogue_section() -> html.Div:
    """Search box, count line and the table (filled in by :func:`register_catalogue`)."""
    data, tips = rows(catalog(current_settings()))
    numeric = {"n_rows", "n_objectives"}
    # "sort-by-header": a click anywhere on a header sorts (assets/header_sort.js)
    return html.Div(className="catalogue sort-by-header", children=[
        dcc.Location(id=ID.NAV, refresh="callback-nav"),
        html.Div(className="catalogue-search", children=[
            dcc.Input(id=ID.SEARCH, type="search", debounce=0.25, autoFocus=True,
                      placeholder="Search, e.g. llm, fairness, price",
                      className="catalogue-search-box"),
            html.Span(count_text(len(data), len(data), ""), id=ID.COUNT, className="help"),
        ]),
        dash_table.DataTable(
            id=ID.TABLE, data=data, tooltip_data=tips, sort_action="native",
            columns=[{"id": c, "name": name, **({"type": "numeric", "format": {
                "specifier": ",d"}} if c in numeric else {}),
                **({"presentation": "markdown"} if c == "title" else {})}
                for c, name, _ in COLUMNS],
            markdown_options={"link_target": "_self"},
            tooltip_delay=400, tooltip_duration=None, cell_selectable=True,
            style_table={"overflowX": "auto"}, css=[{
                "selector": "tr:hover td", "rule": "background-color: #eef4fb !important;"}, {
                # the Markdown cell wraps its link in a <p>: no paragraph margins in a row
                "selector": ".dash-cell-value p", "rule": "margin: 0;"}],
            style_header={"fontWeight": 600, "backgroundColor": "#f4f6f9"},
            style_cell={"fontFamily": FONT, "fontSize": 13, "textAlign": "left",
                        "whiteSpace": "normal", "height": "auto", "padding": "4px 8px",
                        "cursor": "pointer", "verticalAlign": "top"},
            style_cell_conditional=[
                {"if": {"column_id": c}, "width": f"{w}px", "minWidth": f"{w}px",
                 "maxWidth": f"{w}px", **({"textAlign": "right"} if c in numeric else {})}
                for c, _, w in COLUMNS],
            style_data_conditional=[
                {"if": {"column_id": "title"}, "color": "#1f4e8c", "fontWeight": 600},
                {"if": {"filter_query": '{origin} != "bundled"', "column_id": "origin"},
                 "color": "#8a5a00", "fontWeight": 600}]),
    ])


def register_catalogue(app) -> None:
    """Attach the search and the row click to ``app``."""

    @app.callback(Output(ID.TABLE, "data"), Output(ID.TABLE, "tooltip_data"),
                  Output(ID.COUNT, "children"), Input(ID.SEARCH, "value"),
                  Input(MY_UPLOADS, "modified_timestamp"), State(MY_UPLOADS, "data"))
    def search(query, _stamp, owned):
        """Every dataset this browser can see, its own uploads first, kept by the search."""
        settings = current_settings()
        everything = with_my_uploads(catalog(settings, groups=signed_in_groups()),
                                     my_uploads(settings, owned, user=signed_in_user()))
        found = search_catalog(everything, query)
        return *rows(found), count_text(len(found), len(everything), query)

    @app.callback(Output(ID.NAV, "href"), Input(ID.TABLE, "active_cell"),
                  prevent_initial_call=True)
    def open_row(cell):
        """One click on any cell of a row opens the explorer on that row's dataset."""
        if not cell or not cell.get("row_id"):
            raise PreventUpdate
        return explore_href(cell["row_id"])
