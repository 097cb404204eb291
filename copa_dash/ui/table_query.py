"""Server-side paging, filtering and sorting of a DataTable (``page_action="custom"``).

Only the visible page is sent to the browser, so a slider move redraws 15 rows, not
thousands. The filter row's expressions (``{id} contains llama && {obj2} < 5``) are read
here with the operators DataTable writes.
"""

from __future__ import annotations

import math
import re

import pandas as pd

_EXPRESSION = re.compile(
    r"^\{(?P<column>[^}]+)\}\s+(?P<op>scontains|icontains|contains|s=|s!=|s<=|s>=|s<|s>|"
    r"<=|>=|!=|=|<|>|eq|ne|le|ge|lt|gt)\s+(?P<value>.+)$")
_NUMERIC_OPS = {"=": "eq", "eq": "eq", "s=": "eq", "!=": "ne", "ne": "ne", "s!=": "ne",
                "<": "lt", "lt": "lt", "s<": "lt", "<=": "le", "le": "le", "s<=": "le",
                ">": "gt", "gt": "gt", "s>": "gt", ">=": "ge", "ge": "ge", "s>=": "ge"}


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        return text[1:-1]
    return text


def filter_frame(frame: pd.DataFrame, filter_query: str | None) -> pd.DataFrame:
    """Rows of ``frame`` that satisfy every ``&&``-joined expression; unknown parts are ignored.

    Examples
    --------
    >>> f = pd.DataFrame({"id": ["a-1", "b-2"], "x": [1.0, 3.0]})
    >>> filter_frame(f, '{id} contains b && {x} > 2')["id"].tolist()
    ['b-2']
    """
    if not filter_query:
        return frame
    mask = pd.Series(True, index=frame.index)
    for part in filter_query.split(" && "):
        match = _EXPRESSION.match(part.strip())
        if not match or match.group("column") not in frame.columns:
            continue
        column, op, value = match.group("column"), match.group("op"), _unquote(match.group("value"))
        series = frame[column]
        if op in ("contains", "scontains", "icontains") or not pd.api.types.is_numeric_dtype(series):
            text = series.astype(str)
            if op in ("contains", "scontains", "icontains"):
                mask &= text.str.contains(value, case=op == "scontains", regex=False)
            else:
                mask &= (text == value) if _NUMERIC_OPS.get(op) == "eq" else (text != value)
            continue
        try:
            number = float(value)
        except ValueError:
            continue
        if math.isnan(number):
            continue
        mask &= getattr(series, _NUMERIC_OPS[op])(number)
    return frame[mask]


def sort_frame(frame: pd.DataFrame, sort_by: list[dict] | None) -> pd.DataFrame:
    """``frame`` sorted as DataTable's ``sort_by`` says (stable, missing values last)."""
    if not sort_by:
        return frame
    columns = [s["column_id"] for s in sort_by if s.get("column_id") in frame.columns]
    ascending = [s.get("direction", "asc") == "asc" for s in sort_by if s.get("column_id") in frame.columns]
    if not columns:
        return frame
    return frame.sort_values(columns, ascending=ascending, kind="stable", na_position="last")


def page(frame: pd.DataFrame, page_current: int | None, page_size: int) -> tuple[list[dict], int]:
    """The records of one page and the number of pages."""
    pages = max(1, math.ceil(len(frame) / page_size))
    current = min(max(0, int(page_current or 0)), pages - 1)
    start = current * page_size
    return frame.iloc[start:start + page_size].to_dict("records"), pages
