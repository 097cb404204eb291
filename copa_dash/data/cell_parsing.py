"""Turning raw cells into typed columns, with errors that name the column and the rows.

Every reader (CSV, JSON, Excel, Parquet) hands its cells to the two functions here, so a
value means the same in every format:

* missing: an empty cell, or (ignoring case and surrounding spaces) ``NA``, ``N/A``,
  ``NaN``, ``null``, ``None``, ``#N/A``, ``-``, ``—``, ``–``, each also with a unit mark
  (``nan %``, ``N/A ms``: :data:`MISSING_WITH_UNIT`); JSON ``null``; Excel empty cells.
* a column is numeric when every present cell is a plain number: an optional sign,
  digits, one ``.`` as decimal point, an optional exponent (``1e-3``), or ``inf``.
  Thousands separators (``1,234``), decimal commas (``0,5``), units (``12 ms``) and
  percent signs (``85%``) are *not* numbers: guessing what they mean would silently
  change values, so such a column stays text and making it an objective is an error
  that names the cells (see :func:`objective_values`).
* a column whose numbers have leading zeros (``007``) stays text, so ids keep them.

Row numbers in messages count data rows from 1 (the header is not counted): data row
``r`` is line ``r + 1`` of a CSV file without blank lines and row ``r + 1`` of a sheet.
"""

from __future__ import annotations

import datetime as _dt
import numbers
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.errors import InvalidInputError

MISSING_TOKENS = frozenset({"", "na", "n/a", "nan", "null", "none", "#n/a", "-", "—", "–"})
# a missing token with a unit mark, as spreadsheets export an empty percent cell ('nan %',
# 'N/A ms', '- $'): a symbol right after it, or a short unit after a space
MISSING_WITH_UNIT = (r"^(?:na|n/a|nan|null|none|#n/a|-|—|–)"
                     r"(?:\s*[%‰$€£¥]|\s+[a-zµμ]{1,3}(?:/[a-z]{1,3})?)$")
ROWS_NOTE = "(rows count data rows from 1, below the header)"
MAX_LISTED = 5
_MISSING_ARRAY = pa.array(sorted(MISSING_TOKENS))
_NUMBER = (r"^[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"  # 1, 1.5, .5e-3
           r"|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)$")  # inf, Infinity (rejected later)
_INTEGER = r"^[+-]?[0-9]+$"
_LEADING_ZERO = r"^[+-]?0[0-9]"
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d*,\d+$")


def short(value, width: int = 40) -> str:
    """``repr`` of a cell, cut to ``width`` characters for messages."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def row_list(positions, limit: int = MAX_LISTED) -> str:
    """'row 3' or 'rows 3, 7, 9 and 4 more' from 0-based positions (printed 1-based)."""
    positions = list(positions)
    text = ", ".join(str(p + 1) for p in positions[:limit])
    if len(positions) > limit:
        text += f" and {len(positions) - limit} more"
    return f"{'row' if len(positions) == 1 else 'rows'} {text}"


def _is_missing_scalar(value) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, (float, np.floating)) and bool(np.isnan(value))


def _arrow_text(values) -> pa.ChunkedArray:
    """Cells as an arrow string array: text kept, missing cells null, others ``str()``."""
    if isinstance(values, pa.Array):
        values = pa.chunked_array([values])
    if isinstance(values, pa.ChunkedArray):
        if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
            return values
        values = values.to_pylist()
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.StringDtype):
        array = pa.array(values, type=pa.string(), from_pandas=True)  # may be chunked already
        return array if isinstance(array, pa.ChunkedArray) else pa.chunked_array([array])
    cells = [None if _is_missing_scalar(v) else v if isinstance(v, str) else str(v)
             for v in (values.tolist() if isinstance(values, pd.Series) else values)]
    try:
        return pa.chunked_array([pa.array(cells, type=pa.string())])
    except UnicodeEncodeError:  # lone surrogates (possible in JSON): replace them
        cells = [None if c is None else c.encode("utf-8", "replace").decode("utf-8")
                 for c in cells]
        return pa.chunked_array([pa.array(cells, type=pa.string())])


def _clean(values) -> pa.ChunkedArray:
    """Stripped text, null where the cell is missing (see MISSING_TOKENS)."""
    try:
        text = pc.utf8_trim_whitespace(_arrow_text(values))
    except pa.ArrowInvalid:
        # a Parquet file's text arrives as stored, unchecked: damaged bytes surface here as
        # invalid UTF-8 (found by tests/data/test_io_properties.py)
        raise InvalidInputError("the file holds text that is not valid UTF-8: it is damaged, "
                                "or was not written as UTF-8; export it again") from None
    lowered = pc.utf8_lower(text)
    missing = pc.or_(pc.is_in(lowered, value_set=_MISSING_ARRAY),
                     pc.match_substring_regex(lowered, MISSING_WITH_UNIT))
    return pc.if_else(missing, pa.scalar(None, pa.string()), text)


clean_text = _clean  # for the rules on marked cells (column_rules)


def _to_text_series(text: pa.ChunkedArray) -> pd.Series:
    return pd.Series(text.to_pandas(), dtype="str").reset_index(drop=True)


def _floats(text: pa.ChunkedArray) -> np.ndarray:
    return pc.cast(text, pa.float64()).to_numpy()


def text_column(values) -> pd.Series:
    """Type a column of text cells: numeric if every present cell is a number, else text.

    ``values`` is a pandas Series, a list of cells or an arrow array. An all-missing
    column becomes float64 NaN; integers without missing cells become int64; text cells
    are stripped and missing cells become NaN. Vectorised (arrow compute): O(cells).
    """
    text = _clean(values)
    if text.null_count == len(text):
        return pd.Series(np.full(len(text), np.nan))
    if not pc.all(pc.match_substring_regex(text, _NUMBER)).as_py() \
            or pc.any(pc.match_substring_regex(text, _LEADING_ZERO)).as_py():
        return _to_text_series(text)
    if text.null_count == 0 and pc.all(pc.match_substring_regex(text, _INTEGER)).as_py():
        try:
            return pd.Series(pc.cast(text, pa.int64()).to_numpy())
        except pa.ArrowInvalid:  # beyond int64: keep as float
            pass
    return pd.Series(_floats(text))


def values_column(values, *, column: str) -> pd.Series:
    """Type a column of Python cell values (JSON, Excel, Parquet objects).

    Numbers stay numbers (int64 when all are integers and none is missing), booleans
    stay booleans when none is missing, dates become datetime64; a column that mixes
    kinds is turned into text and typed by :func:`text_column`.

    Raises
    ------
    InvalidInputError
        If a cell holds a list, an object or bytes (not a table cell), or a number too
        large for a float; the message names the column and the row.
    """
    values = list(values)
    kinds = set()
    for row, value in enumerate(values):
        if _is_missing_scalar(value):
            kinds.add("missing")
        elif isinstance(value, (bool, np.bool_)):
            kinds.add("bool")
        elif isinstance(value, numbers.Integral):
            kinds.add("int")
        elif isinstance(value, numbers.Real):
            kinds.add("float")
        elif isinstance(value, str):
            kinds.add("str")
        elif isinstance(value, (_dt.date, _dt.datetime, pd.Timestamp, np.datetime64)):
            kinds.add("date")
        else:
            raise InvalidInputError(
                f"column {column!r}, row {row + 1}: a cell holds a {type(value).__name__} "
                f"({short(value)}), but a table cell must be a number, text, a date or empty")
    present = kinds - {"missing"}
    if not present:
        return pd.Series(np.nan, index=range(len(values)), dtype=np.float64)
    if present <= {"int", "float"}:
        out = np.empty(len(values), dtype=np.float64)
        for row, value in enumerate(values):
            try:
                out[row] = np.nan if _is_missing_scalar(value) else float(value)
            except OverflowError:
                raise InvalidInputError(
                    f"column {column!r}, row {row + 1}: the number {short(value)} is too "
                    "large") from None
        if kinds == {"int"} and np.all(np.abs(out) < 2.0**53):
            return pd.Series(out.astype(np.int64))
        return pd.Series(out)
    if present == {"bool"} and "missing" not in kinds:
        return pd.Series(np.array(values, dtype=bool))
    if present == {"date"}:
        try:
            return pd.Series(pd.to_datetime(values))
        except (ValueError, TypeError, OverflowError, pd.errors.OutOfBoundsDatetime):
            pass
    return text_column([None if _is_missing_scalar(v) else _cell_text(v) for v in values])


def _cell_text(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (_dt.date, pd.Timestamp)):
        return value.isoformat()
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        return repr(float(value))
    return str(value)


def _hints(bad_values) -> str:
    hints = []
    if any(_THOUSANDS.match(v) for v in bad_values):
        hints.append("remove thousands separators (write 1234, not 1,234)")
    elif any(_DECIMAL_COMMA.match(v) for v in bad_values):
        hints.append("use '.' as the decimal point (write 0.5, not 0,5)")
    if any(v.endswith("%") for v in bad_values):
        hints.append("write percentages as plain numbers (85, not 85%)")
    hints.append("leave a missing value empty")
    return "; ".join(hints)


def objective_values(series: pd.Series, *, column: str,
                     marked=None) -> tuple[pd.Series | None, str | None]:
    """Convert an objective column to float64, or describe why it cannot be one.

    Returns ``(values, None)`` on success and ``(None, problem)`` otherwise; the
    problem names the column, the rows and up to 5 offending cells. Missing values are
    allowed (NaN); infinite values, dates and an all-missing column are not. ``marked``
    (a cell -> bool, :func:`cell_marks.is_number_with_marks`) leaves numbers with marks out
    of the cells named when others are in the way, as the reader's note does.
    """
    dtype = series.dtype
    if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype):
        return None, f"objective {column!r} holds dates or durations, not numbers"
    if pd.api.types.is_bool_dtype(dtype):
        values = series.astype(np.float64)
    elif pd.api.types.is_numeric_dtype(dtype):
        values = pd.Series(series.to_numpy(dtype=np.float64, na_value=np.nan),
                           index=series.index)
    else:
        text = _clean(series)
        is_number = pc.match_substring_regex(text, _NUMBER)
        bad = np.flatnonzero(pc.fill_null(pc.invert(is_number), False).to_numpy())
        if bad.size and marked is not None:
            bad = _not_marked_numbers(text, bad, marked)
        if bad.size:
            shown = [text[int(p)].as_py() for p in bad[:MAX_LISTED]]
            cells = ", ".join(f"row {p + 1}: {short(v)}" for p, v in zip(bad, shown))
            more = f" and {bad.size - MAX_LISTED} more" if bad.size > MAX_LISTED else ""
            what = "value that is not a number" if bad.size == 1 else "values that are not numbers"
            return None, (f"objective {column!r} has {bad.size} {what}: {cells}{more} "
                          f"{ROWS_NOTE}; {_hints(shown)}")
        values = pd.Series(_floats(text), index=series.index)
    return _checked_floats(values, series, column)


def _not_marked_numbers(text: pa.ChunkedArray, bad: np.ndarray, marked) -> np.ndarray:
    """Of the cells that are not plain numbers, those that are not numbers with marks either
    (``56,5 %``, ``61.1M``; ``marked`` tells them): the cells the reader's note names when it
    kept the column as text, so that forcing the column to be an objective names the same
    cells. All of ``bad`` when every one is a number with marks."""
    still = np.array([p for p in bad if not marked(text[int(p)].as_py())], dtype=np.int64)
    return still if still.size else bad


def _checked_floats(values: pd.Series, series: pd.Series, column: str):
    array = values.to_numpy(dtype=np.float64)
    if np.isnan(array).all():
        return None, f"objective {column!r} has no values (all {array.size} rows are empty)"
    infinite = np.flatnonzero(np.isinf(array))
    if infinite.size:
        return None, (f"objective {column!r} has infinite values in "
                      f"{row_list(infinite)} {ROWS_NOTE}")
    return pd.Series(array, index=series.index, name=series.name), None


def id_values(series: pd.Series) -> pd.Series:
    """Ids as stripped text (integral floats lose their '.0'); NaN where missing."""
    if pd.api.types.is_float_dtype(series.dtype):
        array = series.to_numpy(dtype=np.float64, na_value=np.nan)
        whole = np.isfinite(array) & (array == np.round(array)) & (np.abs(array) < 2.0**53)
        text = [None if np.isnan(v) else (str(int(v)) if w else repr(float(v)))
                for v, w in zip(array, whole)]
        return pd.Series(text, index=series.index, dtype="str")
    return _to_text_series(_clean(series)).set_axis(series.index)
