"""The role tables of the upload form, a page of rows at a time, over one store of the mapping.

A wide export (the fairness Adult/sex one: 215 columns) gave every column a role dropdown, a
direction and its cell in the page at once: ~650 pattern-matching components that Dash's
renderer worked through on every click before the request went out (1.4 s a click, issue
33). Every column's role and direction now live in one store, the mapping
(``{"columns": [...], "roles": {...}, "directions": {...}}``), which the live check and
"Save and explore" read; the tables show :data:`PAGE_SIZE` rows at a time (with "previous",
"next" and a box that finds a column by its name), and a change in a shown row is written
back to the store. A row that was never shown keeps its role and direction in the store.

Two tables use this: the short set (``"short"``) and a wide table's "More columns"
(``"more"``).
"""

from __future__ import annotations

from dash import dcc, html

from copa_dash.ui.features.upload.ids import UploadIds as ID
from copa_dash.ui.features.upload.ids import UploadTableIds as TID

PAGE_SIZE = 30
FIND_PLACEHOLDER = "find a column by its name"   # the check's hint names this box by it

ROLE_OPTIONS = [
    {"label": "objective (compare on it)", "value": "objective"},
    {"label": "system (model of the runs)", "value": "system"},
    {"label": "seed (which run)", "value": "seed"},
    {"label": "task (benchmark or dataset)", "value": "task"},
    {"label": "split (validation or test)", "value": "split"},
    {"label": "config (a setting)", "value": "config"},
    {"label": "budget (evaluations, time)", "value": "budget"},
    {"label": "metadata (filter on it)", "value": "metadata"},
    {"label": "ignore", "value": "ignore"},
]
DIRECTION_OPTIONS = [{"label": "min (lower is better)", "value": "min"},
                     {"label": "max (higher is better)", "value": "max"}]
CONFIDENCE_TEXT = {"sure": "sure", "likely": "likely: check", "unsure": "unsure: choose"}


def shows_direction(column: str, role: str | None, id_column: str | None) -> bool:
    """Whether a column's row offers min/max: only an objective has a direction (the id
    column never is one, whatever its role box says)."""
    return role == "objective" and column != id_column


def initial_mapping(proposal) -> dict:
    """The store of the mapping as proposed: every column (the short set first, then the
    "More columns", the order the save gives the objectives), its role and direction."""
    ordered = [g for g in proposal.columns if not g.more] + [g for g in proposal.columns if g.more]
    return {"columns": [g.name for g in ordered],
            "roles": {g.name: "metadata" if g.role == "id" else g.role for g in ordered},
            "directions": {g.name: g.direction for g in ordered}}


def row_notes(proposal) -> dict:
    """What each row says beside its controls, by column: ``[how sure, why, undecided]``,
    and which table it is in (``"tables": {"short": [...], "more": [...]}``)."""
    notes = {}
    for g in proposal.columns:
        undecided = g.role == "objective" and g.direction is None
        why = g.reason + (f" (unit {g.unit})" if g.unit and g.unit not in g.reason else "")
        notes[g.name] = ["unsure" if undecided else g.confidence,
                         "choose a direction" if undecided else why, undecided]
    return {"rows": notes, "tables": {
        "short": [g.name for g in proposal.columns if not g.more],
        "more": [g.name for g in proposal.columns if g.more]}}


def role_row(column: str, role: str | None, direction: str | None, note: list,
             id_column: str | None) -> html.Tr:
    """One column's row: its name, role, direction (shown for objectives), how sure the
    guess is and why."""
    sure, why, undecided = note
    return html.Tr(className="needs-choice" if undecided else "", children=[
        html.Td(column),
        html.Td(dcc.Dropdown(id={"type": ID.ROLE, "column": column}, options=ROLE_OPTIONS,
                             value=role, clearable=False, className="role-pick",
                             disabled=column == id_column)),
        html.Td(html.Div(
            id={"type": ID.DIRECTION_CELL, "column": column},
            hidden=not shows_direction(column, role, id_column),
            children=dcc.RadioItems(id={"type": ID.DIRECTION, "column": column},
                                    inline=True, options=DIRECTION_OPTIONS, value=direction))),
        html.Td(CONFIDENCE_TEXT.get(sure, sure), className=f"confidence confidence-{sure}"),
        html.Td(why, className="help"),
    ])


def last_page(columns: list, find: str | None, size: int = PAGE_SIZE) -> int:
    """The last page (from 0) of the columns whose name holds ``find``."""
    return max(0, (sum(1 for c in columns if not find or find.lower() in str(c).lower())
                   - 1) // size)


def page_of(columns: list, find: str | None, page: int, size: int = PAGE_SIZE):
    """The columns shown on ``page`` (from 0) of those whose name holds ``find`` (any case),
    the page kept in range, and the words above the rows.

    >>> page_of([f"c{k}" for k in range(70)], None, 5)[1:]
    (2, 'columns 61-70 of 70')
    >>> page_of(["acc", "loss", "race-acc"], "ACC", 0)
    (['acc', 'race-acc'], 0, "2 of 3 columns hold 'ACC'")
    >>> page_of(["acc"], "zz", 0)
    ([], 0, "no column holds 'zz'")
    """
    found = [c for c in columns if not find or find.lower() in str(c).lower()]
    last = max(0, (len(found) - 1) // size)
    page = min(max(0, page), last)
    shown = found[page * size:(page + 1) * size]
    if find and not found:
        return shown, page, f"no column holds {find!r}"
    if find:
        where = "" if last == 0 else f" (here {page * size + 1}-{page * size + len(shown)})"
        return shown, page, f"{len(found)} of {len(columns)} columns hold {find!r}{where}"
    if last == 0:
        return shown, page, f"{len(found)} columns"
    return shown, page, f"columns {page * size + 1}-{page * size + len(shown)} of {len(found)}"


def table_rows(columns: list, mapping: dict, notes: dict, id_column: str | None) -> list:
    """The rows of ``columns`` with the roles and directions of the store ``mapping``."""
    return [role_row(c, mapping["roles"].get(c), mapping["directions"].get(c),
                     notes["rows"][c], id_column) for c in columns]


def _head() -> html.Thead:
    return html.Thead(html.Tr([html.Th("column"), html.Th("role"), html.Th("direction"),
                               html.Th("how sure"), html.Th("why")]))


def role_table(table: str, mapping: dict, notes: dict, id_column: str | None) -> html.Div:
    """A table's first page, with "previous", "next" and the find box when it has more
    rows than a page."""
    columns = notes["tables"][table]
    shown, _, words = page_of(columns, None, 0)
    paged = len(columns) > PAGE_SIZE
    return html.Div(className="role-table", children=[
        html.Div(className="role-pages", hidden=not paged, children=[
            dcc.Input(id={"type": TID.FIND, "table": table}, type="search", debounce=0.3,
                      placeholder=FIND_PLACEHOLDER, className="role-find"),
            html.Button("previous", id={"type": TID.PREVIOUS, "table": table},
                        className="button", disabled=True),
            html.Span(words, id={"type": TID.WHERE, "table": table}, className="help"),
            html.Button("next", id={"type": TID.NEXT, "table": table}, className="button",
                        disabled=not paged),
            dcc.Store(id={"type": TID.PAGE, "table": table}, data=0),
        ]),
        html.Table(className="mapping-table", children=[
            _head(), html.Tbody(id={"type": TID.ROWS, "table": table},
                                children=table_rows(shown, mapping, notes, id_column))]),
    ])


def mapping_lists(mapping: dict) -> tuple[list, list, list]:
    """The store as the lists the check and the save read: columns, roles, directions."""
    columns = list(mapping["columns"])
    return (columns, [mapping["roles"].get(c) for c in columns],
            [mapping["directions"].get(c) for c in columns])
