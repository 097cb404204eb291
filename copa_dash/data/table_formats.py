"""One reader per file format, each turning checked bytes or text into a typed frame.

Called only by :func:`copa_dash.data.io.read_table`, after the size, extension and magic
bytes are checked. Every reader ends with the same typing of cells
(:mod:`copa_dash.data.cell_parsing`) and the same shape checks, so a table means the
same whatever format it came in. Third-party parsers are called on untrusted bytes;
their own exceptions are turned into :class:`InvalidInputError` right at the call.
"""

from __future__ import annotations

import csv
import decimal
import io
import itertools
import json
import logging
import pyexpat
import re
import warnings

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from ..core.errors import InvalidInputError
from .cell_parsing import text_column, values_column
from .json_shapes import flatten, is_keyed_by_name, is_nested, keyed_records
from .read_limits import PARQUET_FOOTER, PARQUET_PAGES, unreadable_parquet
from .read_log import ReadLog
from .text_tables import (
    DELIMITER_NAMES,
    HEADER_SEARCH_ROWS,
    header_index,
    latex_rows,
    looks_like_latex,
    looks_like_markdown,
    markdown_rows,
    sample_rows,
    sniff_decimal,
    sniff_delimiter,
)
from .upload_checks import Limits, check_header, check_shape, check_zip

logger = logging.getLogger(__name__)


def _frame(columns: dict[str, pd.Series]) -> pd.DataFrame:
    return pd.DataFrame({name: values.reset_index(drop=True) for name, values in columns.items()})


def _say_layout(log: ReadLog, what: str, delimiter: str | None) -> None:
    parts = [f"Read as {what}"]
    if delimiter is not None:
        parts.append(f"values separated by {DELIMITER_NAMES[delimiter]}s ({delimiter!r})"
                     if delimiter != "\t" else "values separated by tabs")
    if log.decimal == ",":
        parts.append("',' as the decimal mark (0,5 is one half; as Excel writes in most "
                     "of Europe)")
    log.add(", ".join(parts) + ".")


def _say_skipped(log: ReadLog, skipped: list[str], where: str) -> None:
    if skipped:
        shown = "; ".join(repr(line[:60]) for line in skipped[:3])
        more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
        log.add(f"Skipped {len(skipped)} line{'s' if len(skipped) > 1 else ''} {where} the "
                f"table: {shown}{more}.")


# --------------------------------------------------------------------------- CSV / TSV / TXT
def read_delimited(text: str, fmt: str, filename: str, limits: Limits,
                   log: ReadLog | None = None) -> pd.DataFrame:
    """CSV/TSV/TXT: separator and decimal mark sniffed, title lines skipped, cells as text.

    The separator is the candidate that splits the sample consistently
    (:func:`~copa_dash.data.text_tables.sniff_delimiter`); the header is the first row that
    names most columns (:func:`~copa_dash.data.text_tables.header_index`). Quoted fields may
    hold delimiters and newlines. Blank lines are skipped; lines with at most one value
    and the wrong number of fields (notes, section titles) are dropped and said.
    """
    log = ReadLog() if log is None else log
    if not text.strip():
        raise InvalidInputError(f"{filename}: the file holds only blank space")
    if fmt == "txt" and looks_like_markdown(text):
        return read_text_table(text, "md", filename, limits, log)
    if fmt == "txt" and looks_like_latex(text):
        return read_text_table(text, "tex", filename, limits, log)
    delimiter = sniff_delimiter(text, fmt)
    head = sample_rows(text, delimiter, limit=HEADER_SEARCH_ROWS)
    skip = header_index(head)
    log.decimal = sniff_decimal(sample_rows(text, delimiter), delimiter)
    _say_layout(log, fmt.upper(), delimiter)
    buffer = io.StringIO(text, newline="")
    reader = csv.reader(buffer, delimiter=delimiter)
    skipped = []
    try:
        header_start = buffer.tell()
        header = next(reader)
        while not any(cell.strip() for cell in header) or len(skipped) < skip:
            if any(cell.strip() for cell in header):
                skipped.append(" ".join(c.strip() for c in header if c.strip()))
            header_start = buffer.tell()
            header = next(reader)
    except csv.Error as exc:
        raise InvalidInputError(f"{filename}: cannot read the header line ({exc})") from None
    except StopIteration:
        raise InvalidInputError(f"{filename}: the file has no header line") from None
    _say_skipped(log, skipped, "above")
    full = len(header)
    while len(header) > 1 and not header[-1].strip():  # "a;b;" with a trailing separator
        header = header[:-1]
    header_lines = reader.line_num
    body = text[buffer.tell():]
    if _all_numbers(header):
        header_lines -= 1
        body = text[header_start:]
        header = [f"column {j + 1}" for j in range(full)]
        log.add("The first line holds numbers, so the file has no header: its columns are "
                "called 'column 1', 'column 2', ... (add a header line to name them).")
    names = check_header(header, filename, limits, log)
    if not body.strip():
        check_shape(0, len(names), filename, limits)
    invalid = []

    def on_invalid_row(row):
        invalid.append(row)
        return "skip"

    width = full
    keys = [f"c{i}" for i in range(width)]
    try:
        table = pacsv.read_csv(
            io.BytesIO(body.encode("utf-8")),
            read_options=pacsv.ReadOptions(column_names=keys),
            parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=True,
                                             invalid_row_handler=on_invalid_row),
            convert_options=pacsv.ConvertOptions(column_types={k: pa.string() for k in keys},
                                                 strings_can_be_null=False,
                                                 quoted_strings_can_be_null=False))
    except pa.ArrowException as exc:
        raise InvalidInputError(
            f"{filename}: cannot parse the {fmt.upper()} data ({_arrow_message(exc)})") from None
    notes_rows = [r for r in invalid if _at_most_one_value(r.text, delimiter)
                  and r.actual_columns < width]
    if len(notes_rows) < len(invalid):
        raise _ragged(body, delimiter, len(names), header_lines, invalid, filename)
    if notes_rows:
        _say_skipped(log, [r.text.strip(delimiter + " ") for r in notes_rows], "with one value "
                     "(a note or a section title) inside or below")
    check_shape(table.num_rows, len(names), filename, limits)
    for j in range(len(names), full):  # unnamed trailing columns must be empty
        filled = pc.utf8_length(pc.utf8_trim_whitespace(table.column(keys[j])))
        if pc.max(filled).as_py():
            raise InvalidInputError(
                f"{filename}: column {j + 1} has values but no header name; give it a name")
    return _frame({name: text_column(table.column(k)) for name, k in zip(names, keys)})


def _all_numbers(header: list[str]) -> bool:
    """True when most header cells are numbers: the first line is data, not names."""
    cells = [c.strip() for c in header if c.strip()]
    numbers = sum(1 for c in cells if re.fullmatch(r"[+-]?[\d.,]+%?", c) and any(
        ch.isdigit() for ch in c))
    return len(cells) >= 2 and numbers * 2 > len(cells)


def _at_most_one_value(text: str, delimiter: str) -> bool:
    return sum(1 for cell in text.split(delimiter) if cell.strip()) <= 1


# --------------------------------------------------------------------------- Markdown / LaTeX
def read_text_table(text: str, fmt: str, filename: str, limits: Limits,
                    log: ReadLog | None = None) -> pd.DataFrame:
    """A Markdown pipe table (``fmt="md"``) or a LaTeX ``tabular`` (``fmt="tex"``) as a frame."""
    log = ReadLog() if log is None else log
    if fmt == "md":
        rows, skipped = markdown_rows(text)
        what, extra = "a Markdown table", None
    else:
        rows, n_tables = latex_rows(text)
        skipped, what = [], "a LaTeX table"
        extra = (f"The text holds {n_tables} tables; the first one was read (paste one table "
                 "at a time to read another).") if n_tables > 1 else None
    if len(rows) < 2:
        raise InvalidInputError(
            f"{filename}: no {what[2:]} found: a Markdown table needs a header line, a "
            "'|---|---|' line and rows; a LaTeX table a tabular with '&' between cells and "
            "'\\\\' at the end of each row")
    log.decimal = sniff_decimal(rows, "|" if fmt == "md" else "&")
    _say_layout(log, what, None)
    if extra:
        log.add(extra)
    return rows_frame(rows, filename, limits, log, skipped=skipped)


def rows_frame(rows: list[list], filename: str, limits: Limits, log: ReadLog,
               *, skipped: list[str] = ()) -> pd.DataFrame:
    """Header found among ``rows``, short rows padded with empty cells, every cell typed."""
    start = header_index(rows)
    skipped = list(skipped) + [" ".join(str(c) for c in row if c) for row in rows[:start]]
    _say_skipped(log, skipped, "around")
    header = list(rows[start])
    while len(header) > 1 and not str(header[-1] or "").strip():
        header = header[:-1]
    names = check_header(header, filename, limits, log)
    body = rows[start + 1:]
    wide = [i for i, row in enumerate(body)
            if len(row) > len(names) and any(str(c or "").strip() for c in row[len(names):])]
    if wide:
        i = wide[0]
        raise InvalidInputError(
            f"{filename}: data row {i + 1} has {len(body[i])} cells but the header names "
            f"{len(names)} columns; give every column a header name")
    check_shape(len(body), len(names), filename, limits)
    columns = {name: [row[j] if j < len(row) else None for row in body]
               for j, name in enumerate(names)}
    return _frame({name: values_column(values, column=name) for name, values in columns.items()})


def _arrow_message(exc: Exception) -> str:
    return str(exc).split("\n")[0].replace("CSV parse error: ", "")


def _ragged(body: str, delimiter: str, expected: int, header_lines: int, invalid,
            filename: str) -> InvalidInputError:
    """Name the lines whose field count differs from the header's (Python csv, error path)."""
    found = []
    reader = csv.reader(io.StringIO(body, newline=""), delimiter=delimiter, strict=True)
    start = 1
    try:
        for fields in reader:
            if fields and len(fields) != expected:
                found.append(f"line {header_lines + start} has {len(fields)} "
                             f"field{'' if len(fields) == 1 else 's'}")
                if len(found) == 5:
                    break
            start = reader.line_num + 1
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            found.append(f"the quoted value starting on line {header_lines + start} is never "
                         "closed")
        else:
            found.append(f"line {header_lines + start}: {exc}")
    if not found:  # the two parsers disagree: fall back on pyarrow's own description
        found = [f"record {r.number} ({r.text[:40]!r}) has {r.actual_columns} fields"
                 for r in invalid[:5]]
    more = f" (and {len(invalid) - len(found)} more rows)" if len(invalid) > len(found) else ""
    return InvalidInputError(
        f"{filename}: rows with the wrong number of fields: {'; '.join(found)}{more}; the "
        f"header has {expected} {'field' if expected == 1 else 'fields'} separated by "
        f"{DELIMITER_NAMES[delimiter]}s. Check for unquoted {DELIMITER_NAMES[delimiter]}s "
        "inside values")


# --------------------------------------------------------------------------- JSON
def read_json(text: str, filename: str, limits: Limits,
              log: ReadLog | None = None) -> pd.DataFrame:
    """JSON: records ``[{col: value}, ...]``, columns ``{col: [values]}``, or one object per
    row keyed by its name ``{name: {col: value}}``; nested objects are flattened to dotted
    names (:mod:`~copa_dash.data.json_shapes`).

    Also accepted: pandas' ``to_json`` default ``{col: {row: value}}``, its "split"
    ``{"columns": [...], "data": [[...]]}`` and "table" ``{"schema":..., "data": [...]}``
    layouts. A record that lacks a key has a missing value there.
    """
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(
            f"{filename}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise InvalidInputError(f"{filename}: the JSON is nested too deeply") from None
    except ValueError as exc:
        raise InvalidInputError(f"{filename}: not valid JSON ({exc})") from None
    shape = None
    if isinstance(obj, dict) and set(obj) == {"schema", "data"} and isinstance(obj["data"], list):
        obj = obj["data"]
    if isinstance(obj, dict) and {"columns", "data"} <= set(obj) <= {"columns", "data", "index"} \
            and isinstance(obj["columns"], list) and isinstance(obj["data"], list):
        columns = _split_columns(obj, filename, limits)
    elif isinstance(obj, list):
        if is_nested(obj):
            obj = [flatten(r) if isinstance(r, dict) else r for r in obj]
            shape = "one object per row, nested objects flattened to dotted names"
        columns = _record_columns(obj, filename, limits)
    elif isinstance(obj, dict) and obj and all(isinstance(v, list) for v in obj.values()):
        columns = _list_columns(obj, filename, limits)
    elif isinstance(obj, dict) and obj and all(isinstance(v, dict) for v in obj.values()) \
            and is_keyed_by_name(obj):
        records, key = keyed_records(obj)
        columns = _record_columns(records, filename, limits)
        nested = [c for c in columns if "." in c and c not in key]
        shape = (f"one object per row keyed by its name (the column {key!r})"
                 + (f", nested objects flattened to dotted names ({nested[0]!r}, ...)"
                    if nested else ""))
    elif isinstance(obj, dict) and obj and all(isinstance(v, dict) for v in obj.values()):
        columns = _dict_columns(obj, filename, limits)
    else:
        raise InvalidInputError(
            f"{filename}: the JSON must be a list of records [{{\"col\": value, ...}}, ...] "
            f"or an object of columns {{\"col\": [values], ...}}; it is {_json_kind(obj)}")
    names = check_header(list(columns), filename, limits, log)
    if log is not None:
        log.add("Read as JSON: " + (shape or ("one object per row" if isinstance(obj, list)
                                              else "one list of values per column")) + ".")
    n_rows = len(next(iter(columns.values()))) if columns else 0
    check_shape(n_rows, len(names), filename, limits)
    return _frame({name: values_column(values, column=name)
                   for name, values in zip(names, columns.values())})


def _json_kind(obj) -> str:
    if isinstance(obj, dict):
        return "an empty object" if not obj else "an object mixing lists and other values"
    return {str: "a string", bool: "a boolean", type(None): "null"}.get(type(obj), "a number")


def _record_columns(records: list, filename: str, limits: Limits) -> dict[str, list]:
    if len(records) > limits.max_rows:
        check_shape(len(records), 1, filename, limits)
    keys: dict[str, None] = {}
    for row, record in enumerate(records):
        if not isinstance(record, dict):
            kind = "a list" if isinstance(record, list) else _json_kind(record)
            raise InvalidInputError(
                f"{filename}: record {row + 1} is {kind}, not an object {{\"col\": value, ...}}")
        for key in record:
            if key not in keys:
                keys[key] = None
                if len(keys) > limits.max_columns:
                    check_header(list(keys), filename, limits)
    return {key: [record.get(key) for record in records] for key in keys}


def _list_columns(obj: dict, filename: str, limits: Limits) -> dict[str, list]:
    if len(obj) > limits.max_columns:
        check_header(list(obj), filename, limits)
    lengths = {key: len(values) for key, values in obj.items()}
    first = next(iter(obj))
    for key, n in lengths.items():
        if n != lengths[first]:
            raise InvalidInputError(
                f"{filename}: column {key!r} has {n} values but column {first!r} has "
                f"{lengths[first]}; every column needs one value per row")
    return obj


def _dict_columns(obj: dict, filename: str, limits: Limits) -> dict[str, list]:
    if len(obj) > limits.max_columns:
        check_header(list(obj), filename, limits)
    rows: dict[str, None] = {}
    for inner in obj.values():
        rows.update(dict.fromkeys(inner))
        if len(rows) > limits.max_rows:
            check_shape(len(rows), 1, filename, limits)
    return {key: [inner.get(r) for r in rows] for key, inner in obj.items()}


def _split_columns(obj: dict, filename: str, limits: Limits) -> dict[str, list]:
    names, data = obj["columns"], obj["data"]
    check_header(names, filename, limits)
    check_shape(len(data), len(names), filename, limits)
    for row, values in enumerate(data):
        if not isinstance(values, list) or len(values) != len(names):
            got = f"{len(values)} values" if isinstance(values, list) else _json_kind(values)
            raise InvalidInputError(
                f"{filename}: data row {row + 1} has {got}, but there are {len(names)} columns")
    return {str(name): [values[j] for values in data] for j, name in enumerate(names)}


# --------------------------------------------------------------------------- Excel
def read_xlsx(data: bytes, filename: str, limits: Limits,
              log: ReadLog | None = None) -> pd.DataFrame:
    """First worksheet of an .xlsx: cached cell values only (formulas are never evaluated).

    The zip's total uncompressed size is bounded before openpyxl opens it; openpyxl
    runs read-only, data-only, without external links or VBA. Leading empty rows are
    skipped; the first non-empty row is the header; trailing empty rows are dropped.
    """
    check_zip(data, filename, limits)
    if pyexpat.version_info < (2, 4, 1):  # older expat has no entity-expansion guard
        raise InvalidInputError(
            f"{filename}: this server cannot read Excel files safely; upload CSV instead")
    # here, not at the top: openpyxl costs 0.16 s CPU at the import of every reader
    # (python -c, after copa_dash.data.io), and only Excel uploads use it
    import openpyxl

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True,
                                          keep_links=False, keep_vba=False)
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of the parser on untrusted bytes
            raise InvalidInputError(
                f"{filename}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})"
            ) from None
        try:
            return _sheet_frame(book, filename, limits, ReadLog() if log is None else log)
        except (InvalidInputError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - openpyxl on untrusted bytes
            raise InvalidInputError(
                f"{filename}: cannot read the first sheet ({type(exc).__name__}: {exc})"
            ) from None
        finally:
            book.close()


def _sheet_frame(book, filename: str, limits: Limits, log: ReadLog) -> pd.DataFrame:
    from openpyxl.utils import get_column_letter  # see read_xlsx: Excel uploads only

    if not book.worksheets:
        raise InvalidInputError(f"{filename}: the workbook has no worksheet")
    sheet = book.worksheets[0]
    rows = sheet.iter_rows(values_only=True, max_col=limits.max_columns + 1)
    head = []  # (sheet row, cells) of the first non-empty rows: the header is among them
    for number, row in enumerate(rows, start=1):
        if any(v is not None and str(v).strip() for v in row):
            head.append((number, row))
            if len(head) >= HEADER_SEARCH_ROWS:
                break
    if not head:
        raise InvalidInputError(f"{filename}: the first sheet {sheet.title!r} is empty")
    start = header_index([list(r) for _, r in head])
    header_row, header = head[start]
    log.add(f"Read the first sheet ({sheet.title!r}) of an Excel workbook, header in sheet "
            f"row {header_row}.")
    _say_skipped(log, [" ".join(str(v) for v in r if v is not None) for _, r in head[:start]],
                 "above")
    pending = [r for n, r in head[start + 1:]]
    rows = itertools.chain(pending, rows) if len(head) >= HEADER_SEARCH_ROWS else iter(pending)
    width = max(j for j, v in enumerate(header) if v is not None) + 1
    if width > limits.max_columns:
        raise InvalidInputError(
            f"{filename}: the table has more than {limits.max_columns} columns, the limit")
    names = check_header(header[:width], filename, limits, log)
    body = []
    for row in rows:
        extra = [j for j, v in enumerate(row[width:]) if v is not None]
        if extra:
            column = width + extra[0] + 1
            raise InvalidInputError(
                f"{filename}: data row {len(body) + 1} (sheet row {header_row + len(body) + 1}) "
                f"has a value in column {column} ({get_column_letter(column)}), right of the "
                f"last named column ({width}); give that column a header name")
        body.append(row[:width])
        if len(body) > limits.max_rows or len(body) * width > limits.max_cells:
            check_shape(len(body), width, filename, limits)
    while body and all(v is None for v in body[-1]):
        body.pop()
    check_shape(len(body), width, filename, limits)
    return _frame({name: values_column([row[j] for row in body], column=name)
                   for j, name in enumerate(names)})


# --------------------------------------------------------------------------- Parquet
def read_parquet(data: bytes, filename: str, limits: Limits,
                 log: ReadLog | None = None) -> pd.DataFrame:
    """Parquet via pyarrow; rows, columns and uncompressed size checked from the footer."""
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        meta = parquet.metadata
        n_columns = len(parquet.schema_arrow)
        expanded = sum(meta.row_group(i).total_byte_size for i in range(meta.num_row_groups))
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - pyarrow on untrusted bytes
        raise unreadable_parquet(filename, exc, PARQUET_FOOTER) from None
    if n_columns > limits.max_columns:
        check_header(parquet.schema_arrow.names, filename, limits)
    if meta.num_rows > limits.max_rows or meta.num_rows * n_columns > limits.max_cells:
        check_shape(meta.num_rows, n_columns, filename, limits)
    if expanded > limits.max_uncompressed_bytes:
        raise InvalidInputError(
            f"{filename}: the Parquet data expands to {expanded:,} bytes, over the limit of "
            f"{limits.max_uncompressed_bytes:,}")
    try:
        frame = parquet.read().to_pandas()
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - pyarrow on untrusted bytes
        raise unreadable_parquet(filename, exc, PARQUET_PAGES) from None
    if not isinstance(frame.index, pd.RangeIndex):
        named = any(name is not None for name in frame.index.names)
        frame = frame.reset_index(drop=not named)
    names = check_header(list(frame.columns), filename, limits, log)
    check_shape(len(frame), len(names), filename, limits)
    return _frame({name: _typed(frame.iloc[:, j], name) for j, name in enumerate(names)})


def _typed(series: pd.Series, name: str) -> pd.Series:
    """Keep plain numpy numbers, booleans and dates; type everything else cell by cell."""
    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype):
        return text_column(series)
    if dtype.kind in "biufM" and not isinstance(dtype, pd.api.extensions.ExtensionDtype):
        return series
    if isinstance(dtype, pd.DatetimeTZDtype):
        return series
    values = [(None if v.is_nan() else float(v)) if isinstance(v, decimal.Decimal) else v
              for v in series.astype(object).tolist()]
    return values_column(values, column=name)
