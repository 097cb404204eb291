"""Searching, sorting and paging the explorer's ranked table on the server.

Only the visible page is sent to the browser, so a slider move redraws 15 rows, not
thousands. The search box takes comma-joined conditions: a bare word matches ids that
contain it (any case); ``name < 2`` compares an objective's raw values (the condition syntax
of the CLI's ``--where``, read by the same ``split_condition``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from copa_dash.services.inputs import compare, split_condition

SEARCH_MAX_CHARS = 500
RANKING = "rank"
BY_ID = "id"


@dataclass(frozen=True)
class Searched:
    """The rows a search keeps, and what it could not use (to show beside the table)."""

    frame: pd.DataFrame
    notes: tuple[str, ...] = ()


def search(frame: pd.DataFrame, text: str | None, columns: dict[str, str]) -> Searched:
    """Rows of ``frame`` meeting every comma-separated condition of ``text``.

    Parameters
    ----------
    frame : DataFrame
        The ranked rows, with an ``id`` column.
    text : str or None
        e.g. ``"llama, co2_cost < 2, ifeval >= 0.6"``.
    columns : dict
        Searchable column names as the user sees them (any case) -> the frame's column.

    Returns
    -------
    Searched
        The kept rows (in their order) and notes on conditions that were read as plain text
        because they name no column, or whose value is not a number.

    Examples
    --------
    >>> f = pd.DataFrame({"id": ["a-1", "B-2"], "obj0": [1.0, 3.0]})
    >>> search(f, "b, cost > 2", {"cost": "obj0"}).frame["id"].tolist()
    ['B-2']
    """
    mask = pd.Series(True, index=frame.index)
    notes = []
    text = text or ""
    if len(text) > SEARCH_MAX_CHARS:
        notes.append(f"the search was cut to its first {SEARCH_MAX_CHARS} characters.")
        text = text[:SEARCH_MAX_CHARS]
    lookup = {name.casefold(): column for name, column in columns.items()}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        in_ids = frame["id"].astype(str).str.contains(part, case=False, regex=False)
        condition = split_condition(part)
        if condition is not None:
            name, value = condition.column, condition.number
            column = lookup.get(name.casefold())
            if column is not None and value is not None:
                mask &= compare(frame[column], condition.operator, value)
                continue
            if column is not None:   # a column, but no number: say so
                notes.append(f"the value in '{part}' is not a number, so it was searched "
                             "in the ids.")
            elif value is not None and not in_ids.any():  # "x < 3", x unknown: misspelt?
                notes.append(f"'{name}' is not a column you can filter on "
                             f"({', '.join(columns)}), so '{part}' was searched in the ids.")
        mask &= in_ids
    return Searched(frame[mask], tuple(notes))


def sort_options(objectives: list[str]) -> list[dict]:
    """The sort menu: the ranking, ids, and each objective best or worst first (best as
    the objective's direction says)."""
    options = [{"label": "sort: rank (the criterion)", "value": RANKING},
               {"label": "sort: id (A to Z)", "value": BY_ID}]
    for name in objectives:
        options += [{"label": f"{name}: best first", "value": f"best:{name}"},
                    {"label": f"{name}: worst first", "value": f"worst:{name}"}]
    return options


def sort(frame: pd.DataFrame, key: str | None, columns: dict[str, str],
         directions: dict[str, str]) -> pd.DataFrame:
    """``frame`` (in ranking order) sorted by a :func:`sort_options` value; ties keep the
    ranking's order and missing values go last. An unknown key keeps the ranking."""
    if key == BY_ID:
        return frame.sort_values("id", kind="stable", key=lambda ids: ids.map(_natural_key))
    order, _, name = (key or "").partition(":")
    if order not in ("best", "worst") or name not in columns:
        return frame
    ascending = (directions[name] == "min") == (order == "best")
    return frame.sort_values(columns[name], ascending=ascending, kind="stable",
                             na_position="last")


def _natural_key(text) -> str:
    """A sort key that orders ids as people read them: case-insensitive, and runs of digits
    by their number ("row 2" before "row 10", "llama-7b" before "llama-13b")."""
    return re.sub(r"[0-9]+", lambda run: run.group().lstrip("0").zfill(40),
                  str(text).casefold())


def page(frame: pd.DataFrame, page_index: int | None,
         page_size: int) -> tuple[pd.DataFrame, int, int]:
    """One page of ``frame``: its rows, the page's index (clamped) and the number of pages."""
    current, pages = page_bounds(len(frame), page_index, page_size)
    start = current * page_size
    return frame.iloc[start:start + page_size], current, pages


def page_bounds(n_rows: int, page_index: int | None, page_size: int) -> tuple[int, int]:
    """The asked page's index clamped to the pages ``n_rows`` fill, and how many there are
    (at least one, empty or not)."""
    pages = max(1, math.ceil(n_rows / page_size))
    return min(max(0, int(page_index or 0)), pages - 1), pages
