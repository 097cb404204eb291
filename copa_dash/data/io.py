"""The one table reader every entry point shares (CLI, bundled datasets, uploads).

:func:`read_table` turns a file (path or bytes) into a typed DataFrame; it checks the
size before parsing, the extension against the content, the encoding, the header and
the shape. :func:`build_eval_table` checks column roles against that frame and returns
an :class:`~copa_dash.data.schema.EvalTable`. Every problem with the input raises
:class:`~copa_dash.core.errors.InvalidInputError` with a message that says what is
wrong and where: the line of a CSV file, the (data) row, the column.

Security: nothing is unpickled or evaluated; Excel formulas are not computed (cached
values only); decompression (gzip, the zip of an .xlsx) is bounded before parsing.
"""

from __future__ import annotations

import codecs

import pandas as pd

from ..core.errors import InvalidInputError
from . import failed_rows
from .cell_marks import is_number_with_marks
from .cell_parsing import ROWS_NOTE, id_values, objective_values, row_list, short, text_column
from .column_rules import tidy_frame
from .control_chars import strip_control_characters
from .proposal import guess_roles
from .read_limits import check_before_expanding
from .read_log import ReadLog, TableRead
from .role_guess import add_row_ids, guess_direction, guess_id, row_id_name
from .schema import EvalTable, Roles
from .table_formats import read_delimited, read_json, read_parquet, read_text_table, read_xlsx
from .upload_checks import (
    MARKUP_FORMATS,
    TEXT_FORMATS,
    Limits,
    check_magic,
    decode_text,
    format_of,
    gunzip,
    load_source,
)

# role guesses are re-exported: the upload flow reads, then guesses
__all__ = ["Limits", "TableRead", "add_row_ids", "build_eval_table", "guess_direction",
           "guess_id", "guess_roles", "read_frame_report", "read_pasted_text", "read_table", "read_table_report",
           "row_id_name"]


def read_table(source, /, *, filename: str | None = None,
               limits: Limits | None = None, leave_out_failed: bool = True) -> pd.DataFrame:
    """Read a table file into a DataFrame with typed, stripped, uniquely named columns.

    Parameters
    ----------
    source : str, os.PathLike or bytes
        A path to the file, or its content.
    filename : str
        The file's name as the user gave it; its extension selects the format:
        ``.csv``, ``.tsv``, ``.txt`` (separator and decimal mark sniffed; Markdown or
        LaTeX inside a .txt is recognised), ``.md``, ``.tex``, ``.json`` (each also
        ``.gz``), ``.parquet``, ``.xlsx``. Optional for a path (its base name is used).
    limits : Limits, optional
        Size, row, column and cell bounds (default ``Limits()``: 50 MiB, 1,000,000
        rows, 500 columns, 20,000,000 cells).
    leave_out_failed : bool
        Leave out failed runs and placeholder rows and make zero times missing
        (:mod:`~copa_dash.data.failed_rows`); False for curated tables that flag their
        failures themselves (the bundled datasets, see datasets/PROVENANCE.md).

    Returns
    -------
    pandas.DataFrame
        One column per header name (stripped). A column is numeric (int64/float64)
        when every present cell is a number, boolean or datetime when the format says
        so, else text; missing cells are NaN. The index is a RangeIndex: position
        ``i`` is data row ``i + 1``.

    Raises
    ------
    InvalidInputError
        File too large (checked on the byte size before parsing), empty, of an unknown
        or refused format (.xls, .xlsm, pickles), not what its extension says, not
        UTF-8 (the failing byte offset and line are named), rows with the wrong number
        of fields (their lines are named; a line with one value, a note, is dropped
        instead), invalid JSON, fewer than 2 or too many rows, too many columns or cells.
        Repeated or empty header names are not errors: they are renamed and said.

    Notes
    -----
    Separator, decimal mark, title rows, numbers with marks (``56.5%``, ``61.1M``,
    ``$0.50``, ``69.75*``, ``1,234.5``) and repeated header names are handled by the rules
    of :func:`read_table_report`, which also says what it did; this returns its frame.
    Cost: O(bytes) parsing plus O(cells) typing.

    Examples
    --------
    >>> frame = read_table(b"model,err,acc\\na,0.1,0.9\\nb,0.2,\\n", filename="r.csv")
    >>> frame.dtypes.astype(str).tolist(), frame["acc"].isna().tolist()
    (['str', 'float64', 'float64'], [False, True])
    """
    return read_table_report(source, filename=filename, limits=limits,
                             leave_out_failed=leave_out_failed).frame


def read_table_report(source, /, *, filename: str | None = None,
                      limits: Limits | None = None, leave_out_failed: bool = True,
                      keep_zeros: bool = False) -> TableRead:
    """Read a table as people have it, and say every adjustment made (the "What we read" notes).

    Parameters
    ----------
    source, filename, limits, leave_out_failed
        As for :func:`read_table`; also ``.md`` / ``.markdown`` (a pipe table) and ``.tex``
        (a ``tabular``); a ``.txt`` holding either is read as such.
    keep_zeros : bool
        Keep a 0 in a time or amount column as a value (``--keep-zeros``) instead of
        making it missing.

    Returns
    -------
    TableRead
        ``frame`` (as :func:`read_table` describes), ``notes`` (plain sentences, each once:
        separator and decimal mark, skipped title lines, renamed repeated header names,
        converted cells, dropped empty rows, columns kept as text and why), ``units`` and
        ``labels`` per column (``Memory (MB)`` -> unit MB, label Memory; ``61.1M`` -> M).

    Raises
    ------
    InvalidInputError
        As :func:`read_table`.

    Notes
    -----
    Every file passes through here; a check that must run before any parsing (size
    guards of other formats, for instance) belongs right after ``load_source``.

    Examples
    --------
    >>> read = read_table_report(b"model;acc\\na;56,5%\\nb;61%\\n", filename="eu.csv")
    >>> read.frame["acc"].tolist(), read.units, len(read.notes)
    ([56.5, 61.0], {'acc': '%'}, 2)
    """
    if limits is None:
        limits = Limits()
    elif not isinstance(limits, Limits):
        raise InvalidInputError(f"'limits' must be a Limits, not {type(limits).__name__}")
    data, filename = load_source(source, filename, limits)
    # the one place every file passes before parsing: guards on what a format expands to
    # (size, rows, cells read from metadata) belong here
    fmt, gzipped = format_of(filename)
    if gzipped:
        data = gunzip(data, filename, limits)
    check_magic(data, fmt, filename)
    check_before_expanding(data, fmt, filename, limits)  # bombs refused before parsing
    log = ReadLog()
    try:
        frame = _read_format(data, fmt, filename, limits, log)
    except InvalidInputError as exc:
        if str(exc).startswith(f"{filename}: "):
            raise
        raise InvalidInputError(f"{filename}: {exc}") from None
    frame = strip_control_characters(frame, log)  # escapes never reach the page or CLI
    if leave_out_failed:
        frame = failed_rows.apply(tidy_frame(failed_rows.apply_to_cells(frame, log), log), log,
                                  keep_zeros=keep_zeros)
    else:
        frame = tidy_frame(frame, log)
    if len(frame) < 2:  # the format's own shape check counted rows that held no value at all
        raise InvalidInputError(
            f"{filename}: only {len(frame)} row{'' if len(frame) == 1 else 's'} with any value "
            "left once empty rows were dropped; comparing models needs at least 2")
    return TableRead(frame=frame, notes=tuple(log.notes), units=dict(log.units),
                     zeros_missing=tuple(log.zeros_missing), zeros_kept=tuple(log.zeros_kept),
                     labels=dict(log.labels))


def _read_format(data: bytes, fmt: str, filename: str, limits: Limits, log: ReadLog):
    if fmt in TEXT_FORMATS or fmt in MARKUP_FORMATS or fmt == "json":
        if data.startswith(codecs.BOM_UTF8):
            log.add("The file starts with a byte-order mark (as Excel's 'CSV UTF-8' writes); "
                    "it was ignored.")
        text = decode_text(data, filename)
        if fmt in TEXT_FORMATS:
            return read_delimited(text, fmt, filename, limits, log)
        if fmt in MARKUP_FORMATS:
            return read_text_table(text, fmt, filename, limits, log)
        return read_json(text, filename, limits, log)
    if fmt == "parquet":
        return read_parquet(data, filename, limits, log)
    return read_xlsx(data, filename, limits, log)


def read_pasted_text(text: str, /, *, limits: Limits | None = None) -> TableRead:
    """Read a table pasted as text: Markdown, LaTeX, or cells copied from a spreadsheet.

    Examples
    --------
    >>> read_pasted_text("| m | acc |\\n|---|---|\\n| a | 1 |\\n| b | 2 |").frame.shape
    (2, 2)
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidInputError("the pasted text is empty: paste a table (Markdown, LaTeX, "
                                "or cells copied from a spreadsheet)")
    return read_table_report(text.encode("utf-8"), filename="pasted.txt", limits=limits)


def read_frame_report(frame, /) -> TableRead:
    """Read a DataFrame through the rules a file is read by (notebook, API): cells with marks
    (``61.1M``, ``56,5 %`` stay text in a DataFrame until read), missing markers, units in the
    headers, failed and placeholder rows, zero times - as :func:`read_table_report` does
    after its format's reader. ``frame`` is not modified.

    Raises
    ------
    InvalidInputError
        If ``frame`` is not a DataFrame, its column names are not unique strings, or fewer
        than 2 rows are left.

    Examples
    --------
    >>> read = read_frame_report(pd.DataFrame({"m": ["a", "b"], "params": ["61.1M", "1.2B"]}))
    >>> read.frame["params"].tolist(), read.units
    ([61.1, 1200.0], {'params': 'M'})
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    columns = list(frame.columns)
    if any(not isinstance(c, str) for c in columns) or len(set(columns)) != len(columns):
        raise InvalidInputError("the DataFrame's column names must be unique strings: rename "
                                "them (df.columns = [...]) first")
    log = ReadLog()
    out = frame.reset_index(drop=True)
    for column in out.columns:  # text cells typed as a file's cells are ('nan %', '1.5')
        if pd.api.types.is_object_dtype(out[column].dtype) or pd.api.types.is_string_dtype(
                out[column].dtype):
            out[column] = text_column(out[column]).to_numpy()
    out = failed_rows.apply(tidy_frame(failed_rows.apply_to_cells(out, log), log), log)
    if len(out) < 2:
        raise InvalidInputError(f"only {len(out)} row{'' if len(out) == 1 else 's'} left once "
                                "empty and failed rows were left out; comparing models needs "
                                "at least 2")
    return TableRead(frame=out, notes=tuple(log.notes), units=dict(log.units),
                     labels=dict(log.labels))


def build_eval_table(frame, /, roles) -> EvalTable:
    """Check ``roles`` against ``frame`` and return the typed :class:`EvalTable`.

    Parameters
    ----------
    frame : pandas.DataFrame
        Typically from :func:`read_table`; it is not modified.
    roles : Roles
        Which column is the id, which are objectives (with directions), etc.

    Returns
    -------
    EvalTable
        The frame (a copy-on-write shallow copy) with the id column as stripped text
        and every objective as float64 (NaN where missing).

    Raises
    ------
    InvalidInputError
        A column named in the roles is missing (the available columns are listed);
        repeated column names; fewer than 2 rows; missing or duplicate ids (the ids and
        rows are named); an objective with cells that are not numbers (up to 5 rows and
        values named), with infinite values, with dates, or with no value at all; a
        role column (system, seed, task, ...) with no value at all. All objective
        problems are reported together.

    Notes
    -----
    Missing objective values are allowed; :meth:`EvalTable.missing_counts` counts
    them. Rows in messages are data rows counted from 1. Cost: O(N K).

    Examples
    --------
    >>> from copa_dash.data.schema import Objective, Roles
    >>> frame = pd.DataFrame({"model": ["a", "b"], "err": ["0.1", "x"]})
    >>> build_eval_table(frame, Roles("model", (Objective("err", "min"),)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    copa_dash.core.errors.InvalidInputError: objective 'err' has 1 value that is not a number: ...
    """
    if not isinstance(frame, pd.DataFrame):
        raise InvalidInputError(f"'frame' must be a pandas DataFrame, not {type(frame).__name__}")
    if not isinstance(roles, Roles):
        raise InvalidInputError(f"'roles' must be Roles, not {type(roles).__name__}")
    columns = list(frame.columns)
    odd = [c for c in columns if not isinstance(c, str)]
    if odd:
        raise InvalidInputError(f"column names must be strings; {short(odd[0])} is not")
    repeated = sorted({c for c in columns if columns.count(c) > 1})
    if repeated:
        raise InvalidInputError(
            f"the table has repeated column names: {', '.join(map(repr, repeated))}")
    _check_columns_exist(columns, roles)
    if len(frame) < 2:
        raise InvalidInputError(
            f"the table has {len(frame)} row{'' if len(frame) == 1 else 's'}; comparing "
            "models needs at least 2")
    out = frame.copy(deep=False).reset_index(drop=True)
    out[roles.id] = _checked_ids(out[roles.id], roles.id)
    problems = []
    for name in roles.objective_names:
        values, problem = objective_values(out[name], column=name, marked=is_number_with_marks)
        if problem:
            problems.append(problem)
        else:
            out[name] = values
    for column, role in roles._assignments():
        if role not in ("id", "objective", "metadata") and out[column].isna().all():
            problems.append(f"the {role} column {column!r} has no values (every row is empty)")
    if problems:
        raise InvalidInputError("; ".join(problems))
    return EvalTable(out, roles)


def _check_columns_exist(columns: list[str], roles: Roles) -> None:
    missing = [(column, role) for column, role in roles._assignments() if column not in columns]
    if not missing:
        return
    named = ", ".join(f"{column!r} ({role})" for column, role in missing)
    shown = ", ".join(map(repr, columns[:30])) + (" ..." if len(columns) > 30 else "")
    raise InvalidInputError(
        f"{'column' if len(missing) == 1 else 'columns'} {named} "
        f"{'is' if len(missing) == 1 else 'are'} not in the table; available columns: {shown}")


def _checked_ids(series: pd.Series, column: str) -> pd.Series:
    ids = id_values(series)
    empty = ids.isna().to_numpy().nonzero()[0]
    if empty.size:
        raise InvalidInputError(
            f"the id column {column!r} is empty in {row_list(empty)} {ROWS_NOTE}; every row "
            "needs an id")
    duplicated = ids[ids.duplicated(keep=False)]
    if not duplicated.empty:
        groups = list(duplicated.groupby(duplicated, sort=False).groups.items())
        shown = "; ".join(f"{short(value)} in {row_list(positions, limit=4)}"
                          for value, positions in groups[:5])
        more = f"; and {len(groups) - 5} more ids" if len(groups) > 5 else ""
        raise InvalidInputError(
            f"the id column {column!r} has repeated values: {shown}{more} {ROWS_NOTE}; ids "
            "must be unique - choose another id column or add one (e.g. model + seed)")
    return ids
