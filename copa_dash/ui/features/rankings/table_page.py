"""The page of the Rankings table the browser shows: filtered, sorted and cut on the server.

On the Open LLM leaderboard the rank table has 2,142 entries (about 750 kB of rows and
tooltips); sent whole on every open and every control change, the browser stored, indexed
and paged it although it shows 15 rows (issue 33). The table is now paged, sorted and
filtered here (DataTable ``page_action``, ``sort_action`` and ``filter_action`` "custom"):
the browser receives only the page it shows. The filter understands what the table's filter
row writes (``{column} op value``, joined by ``&&``); a part it cannot read is ignored and
named, as the native filter ignores an invalid expression.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pandas as pd

from copa_dash.services.inputs import read_number

PAGE_SIZE = 15

# the filter row's operators (dash-table's "custom" filter_query), longest spelling first;
# an "i" or "s" prefix (case-insensitive / -sensitive) is read separately
_OPERATORS = {">=": "ge", "<=": "le", "!=": "ne", ">": "gt", "<": "lt", "=": "eq",
              "ge": "ge", "le": "le", "ne": "ne", "gt": "gt", "lt": "lt", "eq": "eq",
              "contains": "contains", "datestartswith": "datestartswith"}
_PART = re.compile(r"^\s*\{(?P<column>[^}]*)\}\s*(?P<case>[is]?)(?P<op>>=|<=|!=|>|<|=|"
                   r"contains\b|datestartswith\b|ge\b|le\b|ne\b|gt\b|lt\b|eq\b)\s*"
                   r"(?P<value>.*?)\s*$")


@dataclass(frozen=True)
class Condition:
    """One part of the table's filter: ``column`` ``op`` ``value``."""

    column: str
    op: str
    value: str
    case_sensitive: bool = True


@dataclass(frozen=True)
class ShownPage:
    """The rows the table shows and what the pager and the count line need."""

    rows: list[dict]
    page: int
    page_count: int
    matching: int
    total: int
    ignored: tuple[str, ...] = ()


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'`":
        return value[1:-1].replace("\\" + value[0], value[0])
    return value


def parse_filter(query: str | None) -> tuple[list[Condition], list[str]]:
    """The conditions of a DataTable ``filter_query`` and the parts that could not be read.

    Examples
    --------
    >>> parse_filter('{entry} icontains "qwen" && {r0} <= 10')[0]
    [Condition(column='entry', op='contains', value='qwen', case_sensitive=False), \
Condition(column='r0', op='le', value='10', case_sensitive=True)]
    >>> parse_filter("{r0} ~ 3")
    ([], ['{r0} ~ 3'])
    """
    conditions, ignored = [], []
    for part in (query or "").split(" && "):
        if not part.strip():
            continue
        found = _PART.match(part)
        if found is None:
            ignored.append(part.strip())
            continue
        conditions.append(Condition(found["column"], _OPERATORS[found["op"]],
                                    _unquote(found["value"]), found["case"] != "i"))
    return conditions, ignored


def _mask(frame: pd.DataFrame, condition: Condition, numeric: bool) -> pd.Series | None:
    """Rows meeting ``condition``, or None when it cannot apply to its column."""
    column = frame[condition.column]
    if condition.op in ("contains", "datestartswith"):
        text = column.map(lambda v: "" if v is None or (isinstance(v, float) and math.isnan(v))
                          else str(v))
        if condition.op == "datestartswith":
            return text.str.startswith(condition.value)
        return text.str.contains(condition.value, case=condition.case_sensitive, regex=False)
    wanted = read_number(condition.value) if numeric else condition.value
    if wanted is None:
        return None
    if not numeric and not condition.case_sensitive:
        column, wanted = column.astype(str).str.lower(), wanted.lower()
    compare = {"eq": column.__eq__, "ne": column.__ne__, "lt": column.__lt__,
               "le": column.__le__, "gt": column.__gt__, "ge": column.__ge__}[condition.op]
    return compare(wanted)


def filtered(frame: pd.DataFrame, columns: list[dict], query: str | None
             ) -> tuple[pd.DataFrame, tuple[str, ...]]:
    """The rows of ``frame`` meeting the filter, and the filter's parts that were ignored
    (unreadable, an unknown column, or a number expected and text given)."""
    conditions, ignored = parse_filter(query)
    numeric = {c["id"]: c.get("type") == "numeric" for c in columns}
    keep = pd.Series(True, index=frame.index)
    for condition in conditions:
        mask = (_mask(frame, condition, numeric[condition.column])
                if condition.column in numeric and condition.column in frame.columns else None)
        if mask is None:
            ignored.append(f"{{{condition.column}}} {condition.op} {condition.value}")
            continue
        keep &= mask.fillna(False).astype(bool)
    return frame[keep], tuple(ignored)


def sorted_rows(frame: pd.DataFrame, sort_by: list[dict] | None) -> pd.DataFrame:
    """``frame`` sorted as the table's headers ask (stable: equal rows keep the table's
    order, largest rank changes first; empty cells last either way)."""
    for key in reversed([s for s in sort_by or () if s.get("column_id") in frame.columns]):
        frame = frame.sort_values(key["column_id"], ascending=key.get("direction") != "desc",
                                  kind="stable", na_position="last")
    return frame


def shown_page(records: list[dict], columns: list[dict], *, page: int | None,
               sort_by: list[dict] | None = None, filter_query: str | None = None,
               page_size: int = PAGE_SIZE) -> ShownPage:
    """The page ``page`` (from 0; past the end: the last page) of ``records`` filtered and
    sorted as the table asks.

    Examples
    --------
    >>> rows = [{"entry": n, "r0": r} for n, r in [("a", 3), ("b", 1), ("c", 2)]]
    >>> cols = [{"id": "entry", "type": "text"}, {"id": "r0", "type": "numeric"}]
    >>> shown = shown_page(rows, cols, page=0, sort_by=[{"column_id": "r0",
    ...                    "direction": "asc"}], filter_query="{r0} > 1", page_size=1)
    >>> shown.rows, shown.page_count, shown.matching, shown.total
    ([{'entry': 'c', 'r0': 2}], 2, 2, 3)
    """
    frame = pd.DataFrame.from_records(records, columns=[c["id"] for c in columns])
    frame, ignored = filtered(frame, columns, filter_query)
    frame = sorted_rows(frame, sort_by)
    page_count = max(1, -(-len(frame) // page_size))
    page = min(max(int(page or 0), 0), page_count - 1)
    chosen = frame.index[page * page_size:(page + 1) * page_size]
    return ShownPage(rows=[records[i] for i in chosen], page=page, page_count=page_count,
                     matching=len(frame), total=len(records), ignored=ignored)


def count_text(shown: ShownPage, what: str = "entries") -> str:
    """The line under the table: how many rows, how many match the filter, what it ignored.

    Examples
    --------
    >>> count_text(ShownPage([], 0, 1, 3, 10, ("{x} eq 1",)))
    '3 of 10 entries match the filter (ignored, not understood: {x} eq 1).'
    """
    text = (f"{shown.total} {what}." if shown.matching == shown.total and not shown.ignored
            else f"{shown.matching} of {shown.total} {what} match the filter")
    if shown.ignored:
        text += f" (ignored, not understood: {'; '.join(shown.ignored)})"
    return text + ("" if text.endswith(".") else ".")
