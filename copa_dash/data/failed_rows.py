"""Failed runs and placeholder values: rows left out, zero times made missing, both said.

A benchmark export keeps the runs that failed: marked in a status column (``failed``,
``OOM``, ``timeout``, ``x``, ...), or written with every metric 0.0 as a placeholder. Read as
numbers, such a row looks perfect on every "lower is better" column (zero latency, zero
memory) and is picked as the best. The rules here, applied to every table after its
format's reader (:func:`apply`):

* a row whose status column says it failed is left out (unless it holds no metric value
  at all: then nothing in it can be read as a measurement, and it stays as flagged);
* a row whose metrics (numeric columns with a guessed direction) are all 0 or missing, at
  least two of them 0, in a table where other rows have values, is left out as a
  placeholder;
* a 0 in a time column (latency, duration, ``(s)``, ``(ms)``, ...) is not a measurement
  (no run takes no time), nor in an amount column (parameters, size, memory, energy: no
  model has none): the cell is made missing.

* a negative placeholder (-1, -99, -999, -9999) repeated in a column whose every other value
  is positive (the Open ASR Leaderboard writes ``RTFx = -1`` and ``Model size (B) = -1`` for
  the proprietary models it could not time or size) is not a measurement either: read as a
  number it is the smallest size there is, or the worst speed, on every such row: the cells
  are made missing.

* a number column whose other cells say the run failed (``OOM``, ``timeout``, ``error``,
  ``x``: ``12.5, OOM, 14.1``) has those rows left out, before the cells are typed
  (:func:`apply_to_cells`), so the column stays numeric.

Every rule writes one note naming the rows (data rows counted from 1, with their name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow.compute as pc

from .cell_marks import CELL_REGEX
from .cell_parsing import _arrow_text, clean_text, row_list, text_column
from .read_log import ReadLog
from .role_guess import direction_reason
from .vocabulary import header_words, word_lists

_WORDS = word_lists("failed_rows")  # vocabulary.toml, [failed_rows]
STATUS_WORDS = _WORDS["status_columns"]
_FAILED_CELL = re.compile(
    r"^(?:x|✗|✘|❌|fail(?:ed|ure|s)?\b.*|error\b.*|err|errored|exception\b.*|"
    r"oom\b.*|out of memory\b.*|cuda out of memory\b.*|time ?out\b.*|timed out\b.*|"
    r"crash(?:ed)?\b.*|killed\b.*|abort(?:ed)?\b.*|invalid\b.*|dnf|did not finish\b.*|"
    r"not run|skipped|cancel(?:l)?ed)$", re.IGNORECASE)
_PADDED_FAILED = r"^\s*" + _FAILED_CELL.pattern[1:-1] + r"\s*$"
_SUCCESS_WORDS = _WORDS["success_columns"]
_FAILURE_WORDS = _WORDS["failure_columns"]
_YES = _WORDS["yes"]
_NO = _WORDS["no"]
_FINE = _WORDS["fine_cells"]
_TIME_WORDS = _WORDS["time_columns"]
_TIME_UNITS = _WORDS["time_units"]
_AMOUNT_WORDS = _WORDS["amount_columns"]
_AMOUNT_UNITS = _WORDS["amount_units"]
_ZERO_IS_REAL = _WORDS["zero_is_real_columns"]
_LAST_ONLY = _WORDS["time_word_last_only"]


_words = header_words


@dataclass(frozen=True)
class FailedRows:
    """What :func:`find` found: rows to leave out (0-based positions) and why, per rule,
    and time columns whose zeros are to be made missing."""

    status: dict  # column -> positions of rows it marks failed
    placeholders: tuple[int, ...]
    zero_times: dict  # column -> positions of cells equal to 0
    negative_placeholders: dict = field(default_factory=dict)  # column -> (value, positions)

    @property
    def rows(self) -> np.ndarray:
        """Every row left out, sorted."""
        found = set(self.placeholders)
        for positions in self.status.values():
            found.update(positions)
        return np.array(sorted(found), dtype=np.int64)


def status_columns(frame: pd.DataFrame) -> list[str]:
    """Columns named for a run's status or error, holding text or yes/no values.

    Examples
    --------
    >>> status_columns(pd.DataFrame({"model": ["a"], "status": ["ok"], "latency": [1.0]}))
    ['status']
    """
    found = []
    for column in frame.columns:
        words = _words(column)
        series = frame[column]
        numeric = pd.api.types.is_numeric_dtype(series.dtype) and not \
            pd.api.types.is_bool_dtype(series.dtype)
        if words and not numeric and (words[-1] in STATUS_WORDS or words[0] in STATUS_WORDS):
            found.append(column)
    return found


def _failed_in(series: pd.Series, column: str) -> np.ndarray:
    """Positions of the rows ``column`` marks as failed."""
    words = set(_words(column))
    success_column = bool(words & _SUCCESS_WORDS)
    error_column = bool(words & _FAILURE_WORDS)
    if pd.api.types.is_bool_dtype(series.dtype):
        values = series.to_numpy(dtype=bool)
        return np.flatnonzero(~values if success_column else values if error_column
                              else np.zeros(len(values), dtype=bool))
    out = []
    for position, cell in enumerate(series.astype("string")):
        if cell is pd.NA or not str(cell).strip():
            continue
        text = str(cell).strip()
        lowered = text.lower()
        if lowered in _YES:
            failed = error_column
        elif lowered in _NO:
            failed = success_column
        elif error_column and words & {"error", "errors", "exception"}:
            failed = lowered not in _FINE  # an error column holding a message
        else:
            failed = bool(_FAILED_CELL.match(text))
        if failed:
            out.append(position)
    return np.array(out, dtype=np.int64)


def metric_columns(frame: pd.DataFrame, units: dict | None = None) -> list[str]:
    """Numeric columns with a guessed direction: the measurements of a run."""
    units = units or {}
    out = []
    for column in frame.columns:
        series = frame[column]
        if not pd.api.types.is_numeric_dtype(series.dtype) or pd.api.types.is_bool_dtype(
                series.dtype):
            continue
        direction, _ = direction_reason(column, units.get(column))
        if direction is not None:
            out.append(column)
    return out


def is_time_column(column: str, unit: str | None = None) -> bool:
    """Named or measured as a time: 'latency', 'Prefill (s)', 'duration_ms', unit 'ms'.

    Examples
    --------
    >>> is_time_column("Prefill (s)", "s"), is_time_column("p99_latency"), is_time_column("acc")
    (True, True, False)

    A fraction, rate or score is never a time, and "MS" or "TIME" leading a header names a
    dataset (HEIM):

    >>> is_time_column("MS-COCO (base) - NSFW frac given non-toxic prompt"), is_time_column("duration_ms")
    (False, True)
    """
    words = _words(column)
    if set(words) & _ZERO_IS_REAL:
        return False
    # "ms"/"time" leading a header followed by more than a unit names a dataset ("MS-COCO")
    named = {w for i, w in enumerate(words) if w not in _LAST_ONLY or i > 0
             or set(words[1:]) <= _TIME_UNITS}
    return bool(named & _TIME_WORDS) or (unit or "").strip().lower() in _TIME_UNITS


def is_amount_column(column: str, unit: str | None = None) -> bool:
    """Named or measured as an amount no model has at 0: parameters, size, memory, energy.

    Examples
    --------
    >>> is_amount_column("params_b"), is_amount_column("Memory (MB)", "MB")
    (True, True)
    >>> is_amount_column("accuracy"), is_amount_column("price_usd")
    (False, False)
    """
    words = _words(column)
    if set(words) & _ZERO_IS_REAL:
        return False
    return bool(set(words) & _AMOUNT_WORDS) or (unit or "").strip().lower() in _AMOUNT_UNITS


def find(frame: pd.DataFrame, /, *, units: dict | None = None) -> FailedRows:
    """The failed rows, placeholder rows and zero times of ``frame`` (see the module notes).

    Notes
    -----
    O(N C). A table where every row is a placeholder has nothing to compare and is left as
    it is (the later checks name its empty objectives).
    """
    units = units or {}
    metrics = metric_columns(frame, units)
    measured = frame[metrics].notna().any(axis=1).to_numpy() if metrics else \
        np.ones(len(frame), dtype=bool)
    status = {}
    for column in status_columns(frame):
        failed = _failed_in(frame[column], column)
        # a failed row without any metric value is already out of every comparison (a
        # curated table flags its failures so): it stays, only numbers that look measured go
        failed = failed[measured[failed]] if failed.size else failed
        if failed.size and failed.size < len(frame):
            status[column] = tuple(int(p) for p in failed)
    placeholders: tuple[int, ...] = ()
    if len(metrics) >= 2:
        values = frame[metrics].to_numpy(dtype=np.float64, na_value=np.nan)
        zero_or_missing = (values == 0) | np.isnan(values)
        blank = zero_or_missing.all(axis=1) & ((values == 0).sum(axis=1) >= 2)
        failed = {p for ps in status.values() for p in ps}
        if blank.any() and not blank.all():
            placeholders = tuple(int(p) for p in np.flatnonzero(blank) if int(p) not in failed)
    left_out = set(placeholders) | {p for ps in status.values() for p in ps}
    zero_times = {}
    for column in metrics:
        unit = units.get(column)
        if direction_reason(column, unit)[0] != "min" or not (
                is_time_column(column, unit) or is_amount_column(column, unit)):
            continue
        values = frame[column].to_numpy(dtype=np.float64, na_value=np.nan)
        zeros = [int(p) for p in np.flatnonzero(values == 0) if int(p) not in left_out]
        if zeros:
            zero_times[column] = tuple(zeros)
    negative = {column: found for column in frame.columns
                if (found := negative_placeholder(frame[column], left_out)) is not None}
    return FailedRows(status, placeholders, zero_times, negative)


#: the negative numbers exports write for "not measured" in a column of positive values
NEGATIVE_PLACEHOLDERS = (-1.0, -99.0, -999.0, -9999.0)


def negative_placeholder(series: pd.Series, left_out=()) -> tuple[float, tuple[int, ...]] | None:
    """``(value, positions)`` when ``series`` holds one of :data:`NEGATIVE_PLACEHOLDERS` in
    at least two rows and every other value is positive; else None.

    Examples
    --------
    >>> negative_placeholder(pd.Series([280.0, -1, 418.3, -1, 145.4]))
    (-1.0, (1, 3))
    >>> negative_placeholder(pd.Series([0.3, -1, 0.5, -1, -0.2])) is None   # a signed score
    True
    >>> negative_placeholder(pd.Series([2.0, -1, 3.0])) is None              # once: a value
    True
    """
    if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
        return None
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    for value in NEGATIVE_PLACEHOLDERS:
        hits = values == value
        others = values[~hits & ~np.isnan(values)]
        if hits.sum() >= 2 and others.size >= 2 and (others > 0).all():
            return value, tuple(int(p) for p in np.flatnonzero(hits) if int(p) not in left_out)
    return None


def _named(frame: pd.DataFrame, positions, skip=()) -> str:
    """'rows 3 ('llama-7b'), 5 ('gpt2')': row numbers with the first text column's value."""
    text = next((c for c in frame.columns if pd.api.types.is_string_dtype(frame[c].dtype)
                 and c not in skip and frame[c].notna().all()), None)
    positions = list(positions)
    if text is None:
        return row_list(positions)
    shown = ", ".join(f"{p + 1} ({str(frame[text].iloc[p])!r})" for p in positions[:5])
    more = f" and {len(positions) - 5} more" if len(positions) > 5 else ""
    return f"{'row' if len(positions) == 1 else 'rows'} {shown}{more}"


def apply(frame: pd.DataFrame, log: ReadLog, /, *, keep_zeros: bool = False) -> pd.DataFrame:
    """Leave out failed and placeholder rows and make zero times missing, saying so in
    ``log``; ``frame`` is not modified. With ``keep_zeros`` a 0 in a time or amount column
    stays a value (a constant predictor that takes 0 s, as AMLB 2019 records), said once.

    Examples
    --------
    >>> log = ReadLog()
    >>> f = pd.DataFrame({"model": ["a", "b", "c"], "status": ["ok", "OOM", "ok"],
    ...                   "latency_ms": [3.0, 0.0, 0.0], "accuracy": [0.7, 0.0, 0.8]})
    >>> out = apply(f, log)
    >>> out["model"].tolist(), out["latency_ms"].tolist()[1]
    (['a', 'c'], nan)
    >>> log.notes[0]
    "Left out row 2 ('b'): 'status' says it failed ('OOM'); a failed run's numbers are not measurements."
    """
    found = find(frame, units=log.units)
    if keep_zeros and found.zero_times:
        log.add(f"Kept 0 as a value in {', '.join(map(repr, found.zero_times))} (as asked).")
        log.zeros_kept.extend(found.zero_times)
        found = FailedRows(found.status, found.placeholders, {}, found.negative_placeholders)
    if not (found.status or found.placeholders or found.zero_times
            or found.negative_placeholders):
        return frame
    out = frame.copy()
    for column, positions in found.status.items():
        values = list(dict.fromkeys(str(out[column].iloc[p]) for p in positions))
        log.add(f"Left out {_named(frame, positions)}: {column!r} says "
                f"{'it' if len(positions) == 1 else 'they'} failed "
                f"({', '.join(map(repr, values[:4]))}{' ...' if len(values) > 4 else ''}); "
                "a failed run's numbers are not measurements.")
    if found.placeholders:
        log.add(f"Left out {_named(frame, found.placeholders)}: every metric is 0 or empty, "
                "a placeholder of a run that did not finish (0 would read as a perfect "
                "latency or cost).")
    for column, positions in found.zero_times.items():
        log.zeros_missing.append(column)
        out[column] = out[column].astype(np.float64)
        out.loc[out.index[list(positions)], column] = np.nan
        what = ("no run takes no time" if is_time_column(column, log.units.get(column))
                else "no model has no size, memory or energy")
        log.add(f"Column {column!r}: 0 in {_named(frame, positions)} read as missing; "
                f"{what}, so a 0 is a placeholder, never the best value.")
        # each front end says how to keep a real 0 in its own words (the Upload page's box
        # under these notes, the command line's --keep-zeros: cli._common.keep_zeros_hint)
    for column, (value, positions) in found.negative_placeholders.items():
        if not positions:
            continue
        out[column] = out[column].astype(np.float64)
        out.loc[out.index[list(positions)], column] = np.nan
        log.add(f"Column {column!r}: {value:g} in {_named(frame, positions)} read as missing; "
                f"every other value is positive, so {value:g} is a placeholder for 'not "
                "measured', never the smallest or worst value.")
    drop = found.rows
    if drop.size:
        out = out.drop(index=out.index[drop]).reset_index(drop=True)
    return out


def _numbers(text) -> np.ndarray:
    """Which cells are numbers, with or without marks (either decimal mark); vectorised."""
    out = None
    for regex in CELL_REGEX.values():
        match = pc.fill_null(pc.match_substring_regex(text, regex), False).to_numpy(
            zero_copy_only=False)
        out = match if out is None else out | match
    return out


def failed_cells(frame: pd.DataFrame) -> dict:
    """Text columns whose cells are numbers except some that say the run failed: column ->
    positions of those cells (empty when a column holds anything else that is not a number).

    Examples
    --------
    >>> failed_cells(pd.DataFrame({"m": ["a", "b", "c"], "latency": ["12.5", "OOM", "14"]}))
    {'latency': (1,)}
    """
    found = {}
    for column in frame.columns:
        series = frame[column]
        if not (pd.api.types.is_string_dtype(series.dtype)
                or pd.api.types.is_object_dtype(series.dtype)) \
                or pd.api.types.is_bool_dtype(series.dtype):
            continue
        head = clean_text(series.iloc[:1000])
        present = len(head) - head.null_count
        if not present or 2 * _numbers(head).sum() < present:
            continue  # names, notes, categories: told by their head
        if not pc.any(pc.match_substring_regex(_arrow_text(series), _PADDED_FAILED,
                                               ignore_case=True)).as_py():
            continue  # one vectorised pass on the raw cells: no failure word anywhere
        text = clean_text(series)
        failed = pc.fill_null(pc.match_substring_regex(text, _FAILED_CELL.pattern,
                                                        ignore_case=True), False).to_numpy(
            zero_copy_only=False)
        numbers = _numbers(text)
        if (numbers | failed | pc.is_null(text).to_numpy(zero_copy_only=False)).all() \
                and numbers.any():
            found[column] = tuple(int(p) for p in np.flatnonzero(failed & ~numbers))
    return found


def apply_to_cells(frame: pd.DataFrame, log: ReadLog, /) -> pd.DataFrame:
    """Leave out the rows whose number cells say the run failed (:func:`failed_cells`),
    saying so in ``log``; ``frame`` is not modified.

    Examples
    --------
    >>> log = ReadLog()
    >>> f = pd.DataFrame({"m": ["a", "b", "c"], "latency": ["12.5", "OOM", "14"]})
    >>> apply_to_cells(f, log)["m"].tolist(), log.notes
    (['a', 'c'], ["Left out row 2 ('b'): 'latency' says the run failed ('OOM') where a number should be."])
    """
    found = failed_cells(frame)
    if not found:
        return frame
    drop = sorted({p for positions in found.values() for p in positions})
    values = list(dict.fromkeys(str(frame[c].iloc[p]).strip() for c, ps in found.items()
                                for p in ps))
    columns = ", ".join(map(repr, found))
    log.add(f"Left out {_named(frame, drop, skip=found)}: {columns} "
            f"{'says' if len(found) == 1 else 'say'} the run failed "
            f"({', '.join(map(repr, values[:4]))}{' ...' if len(values) > 4 else ''}) where a "
            "number should be.")
    if len(drop) >= len(frame):
        return frame
    out = frame.drop(index=frame.index[drop]).reset_index(drop=True)
    for column in found:  # typed again as the reader types cells: plain numbers -> float
        out[column] = text_column(out[column]).to_numpy()
    return out
