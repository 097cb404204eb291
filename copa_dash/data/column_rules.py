"""The rules applied to every table after its format's reader, whatever the format.

Empty rows are dropped, text columns whose cells are numbers with marks are read as numbers
(:mod:`copa_dash.data.cell_marks`), a column kept as text although most of its cells are
numbers is said with the cells in the way, and units are read from the headers. Each
adjustment goes to the :class:`~copa_dash.data.read_log.ReadLog` once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .cell_marks import (
    CELL_REGEX,
    EXTRA_MISSING,
    Converted,
    convert_column,
    header_unit,
    near_miss,
)
from .cell_parsing import clean_text, row_list
from .read_log import ReadLog


def _is_text(series: pd.Series) -> bool:
    return (pd.api.types.is_string_dtype(series.dtype)
            or pd.api.types.is_object_dtype(series.dtype)) and \
        not pd.api.types.is_bool_dtype(series.dtype)


_EXTRA_MISSING = pa.array(sorted(EXTRA_MISSING))
SAMPLE_ROWS = 1000


def _marked_counts(series: pd.Series, decimal: str) -> tuple[pa.ChunkedArray, int, int]:
    """The stripped cells (null where missing), how many are present, how many are numbers
    with marks - counted by pyarrow (RE2) so a long text column costs milliseconds."""
    head = clean_text(series.iloc[:SAMPLE_ROWS])  # most text columns are told by their head
    head_present = len(head) - head.null_count
    if head_present and 2 * (pc.sum(pc.match_substring_regex(
            head, CELL_REGEX[decimal])).as_py() or 0) < head_present:
        return head, head_present, 0
    text = clean_text(series)
    text = pc.if_else(pc.is_in(pc.utf8_lower(text), value_set=_EXTRA_MISSING),
                      pa.scalar(None, pa.string()), text)
    present = len(text) - text.null_count
    if not present:
        return text, 0, 0
    matched = pc.sum(pc.match_substring_regex(text, CELL_REGEX[decimal])).as_py() or 0
    return text, present, matched


def _plain_or_percent(text: pa.ChunkedArray, decimal: str) -> Converted | None:
    """The common cases, vectorised: decimal commas and/or '%' only (no other mark)."""
    simple = rf"^[+-]?(?:\d+(?:\{decimal}\d*)?|\{decimal}\d+)(?:[eE][+-]?\d+)?\s*%?$"
    if not pc.all(pc.match_substring_regex(text, simple)).as_py() \
            or pc.any(pc.match_substring_regex(text, r"^[+-]?0\d")).as_py():
        return None  # leading zeros (007) stay text, as ids keep them
    percent = pc.sum(pc.ends_with(text, "%")).as_py() or 0
    if decimal == "." and not percent:
        return None  # plain numbers: text_column decided they are text
    plain = pc.utf8_rtrim_whitespace(pc.utf8_rtrim(text, characters="%"))
    if decimal == ",":
        plain = pc.replace_substring(plain, ",", ".")
    values = pd.Series(pc.cast(plain, pa.float64()).to_numpy(zero_copy_only=False))
    changes = (f"'%' removed from {percent} cells (kept as the unit)",) if percent else ()
    return Converted(values, "%" if percent else None, changes)


def tidy_frame(frame: pd.DataFrame, log: ReadLog) -> pd.DataFrame:
    """Apply the rules above to ``frame`` (not modified) and return the result.

    Examples
    --------
    >>> log = ReadLog()
    >>> out = tidy_frame(pd.DataFrame({"m": ["a", "b"], "Acc": ["56.5%", "61%"],
    ...                                "Memory (MB)": [1.0, 2.0]}), log)
    >>> out["Acc"].tolist(), log.units
    ([56.5, 61.0], {'Acc': '%', 'Memory (MB)': 'MB'})
    """
    out = frame.copy(deep=False)
    empty = np.flatnonzero(out.isna().all(axis=1).to_numpy()) if len(out.columns) else []
    if len(empty):
        log.add(f"Dropped {len(empty)} empty row{'s' if len(empty) > 1 else ''} "
                f"({row_list(empty)}, counting data rows from 1).")
        out = out.drop(index=out.index[empty]).reset_index(drop=True)
    for name in out.columns:
        series = out[name]
        if _is_text(series):
            text, present, matched = _marked_counts(series, log.decimal)
            if not matched or 2 * matched < present:
                continue  # text: names, notes, categories
            converted = _plain_or_percent(text, log.decimal) if matched == present else None
            cells = None if converted is not None else text.to_pylist()
            if converted is None and matched == present:
                converted = convert_column(cells, decimal=log.decimal)
            if converted is not None:
                out[name] = converted.values.to_numpy()
                if converted.unit:
                    log.units[name] = converted.unit
                if converted.changes:
                    log.add(f"Column {name!r} read as numbers: {'; '.join(converted.changes)}.")
            else:
                why = near_miss(cells, decimal=log.decimal)
                if why:
                    log.add(f"Column {name!r}: {why}.")
                continue
        elif not pd.api.types.is_numeric_dtype(series.dtype) or pd.api.types.is_bool_dtype(
                series.dtype):
            continue
        found = header_unit(name)
        if found is not None:
            log.labels[name] = found[0]
            log.units.setdefault(name, found[1])
    return out
