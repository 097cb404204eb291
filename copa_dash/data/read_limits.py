"""Bounds on what an upload may expand to, checked before it is expanded.

A file of a few kilobytes can describe gigabytes: a Parquet column that repeats one long
string is stored once in a dictionary page, a JSON text can nest ``[`` fifty thousand
deep, a CSV cell can be megabytes long. :func:`check_before_expanding` looks at the
bytes (and, for Parquet, at the footer and the dictionaries, never at the expanded
values) and refuses such files with a message that names the file, the column and the
limit, in a few milliseconds. The reader runs only on what passes.

The memory bound (``Limits.max_memory_bytes``, ``COPA_MAX_UPLOAD_MEMORY_MB``, 512 MiB by
default) is applied to an *estimate* of the memory the reader needs, computed from what
the file says about itself:

* Parquet: the uncompressed size of every column chunk (footer metadata) bounds what
  the decoder allocates; for text columns the dense size is computed exactly from the
  dictionary-encoded read (the string lengths of the dictionary taken at the indices),
  so a repeated long string counts once per row, as pandas will hold it.
* CSV/TSV/TXT and JSON: the byte size times a factor measured on the readers
  (:data:`TEXT_FACTOR`, :data:`JSON_FACTOR`), plus a per-cell overhead.
* Excel: the uncompressed size of the workbook's parts (read from the zip directory).

Why an estimate and not an operating-system limit: ``RLIMIT_AS``/``RLIMIT_DATA`` bound a
whole process, so in a gunicorn worker they would also fail the other requests its
threads are serving, and numba's JIT maps large virtual regions. The estimate is checked
before any large allocation, which is what keeps a worker's resident size bounded
(``tests/reliability/test_upload_bomb.py`` measures it).
"""

from __future__ import annotations

import io
import logging
import re
import zipfile

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..core.errors import InvalidInputError

logger = logging.getLogger(__name__)

MIB = 2**20
#: Longest cell accepted, in bytes (a leaderboard's longest note is a few hundred).
MAX_CELL_BYTES = 1 * MIB
#: Row groups a Parquet file may have (each costs a footer entry and a read call).
MAX_ROW_GROUPS = 10_000
#: Memory per byte of a CSV/TSV while it is read (text, Arrow buffers, typed columns);
#: measured with tracemalloc + RSS on text-heavy and number-heavy files, rounded up.
TEXT_FACTOR = 9
#: Memory per byte of a JSON text (Python objects for every value), measured likewise.
JSON_FACTOR = 26
#: Memory per cell once the table is in pandas, beyond its text (pointers, numbers, masks).
CELL_BYTES = 24
#: Copies of the expanded data alive at once while a Parquet table becomes a frame
#: (Arrow table, pandas columns, the typed copy).
PARQUET_COPIES = 2


def uncompressed_bound(max_memory_bytes: int, default: int = 256 * MIB) -> int:
    """Largest decompressed size (gzip, xlsx) whose reading fits in ``max_memory_bytes``.

    A gzip file is decompressed into memory before any other check can look at it, so
    the decompression itself must stop where a text of that size would already be over
    the memory bound.
    """
    return max(MIB, min(default, int(max_memory_bytes) // TEXT_FACTOR))


class UploadTooLargeError(InvalidInputError):
    """The upload would take more memory than the instance allows (the API answers 413)."""


def _mb(n: float) -> str:
    return f"{n / MIB:,.1f} MB"


def _too_much_memory(filename: str, needed: float, cap: int, what: str) -> UploadTooLargeError:
    return UploadTooLargeError(
        f"{filename}: {what} would need about {_mb(needed)} of memory once expanded, over "
        f"this instance's limit of {_mb(cap)} (COPA_MAX_UPLOAD_MEMORY_MB); upload a "
        "smaller table or fewer columns")


def check_before_expanding(data: bytes, fmt: str, filename: str, limits) -> None:
    """Refuse ``data`` if reading it as ``fmt`` would exceed ``limits``.

    Parameters
    ----------
    data : bytes
        The file's content (already gunzipped and bounded by ``limits.max_bytes``).
    fmt : str
        ``"csv"``, ``"tsv"``, ``"txt"``, ``"md"``, ``"tex"``, ``"json"``, ``"parquet"`` or
        ``"xlsx"``.
    filename : str
        Named in every message.
    limits : Limits
        ``max_rows``, ``max_columns``, ``max_cells``, ``max_memory_bytes``.

    Raises
    ------
    UploadTooLargeError
        If the estimated memory is over ``limits.max_memory_bytes``.
    InvalidInputError
        If a cell is longer than :data:`MAX_CELL_BYTES`, or a Parquet file has too many rows, columns or row groups, nested columns, or an
        unreadable footer.

    Notes
    -----
    Cost: one pass over the bytes for text formats (numpy), the footer and the
    dictionary pages for Parquet; never the expanded table.
    """
    cap = int(getattr(limits, "max_memory_bytes", 512 * MIB))
    if fmt == "parquet":
        _check_parquet(data, filename, limits, cap)
    elif fmt == "json":  # its reader bounds the nesting itself
        _check_text(data, filename, cap, factor=JSON_FACTOR, json=True)
    elif fmt in ("csv", "tsv", "txt", "md", "tex"):
        _check_text(data, filename, cap, factor=TEXT_FACTOR, json=False)
    elif fmt == "xlsx":
        _check_xlsx(data, filename, cap)


# ---- text -------------------------------------------------------------------------------

def _check_text(data: bytes, filename: str, cap: int, *, factor: int, json: bool) -> None:
    raw = np.frombuffer(data, dtype=np.uint8)
    if json:  # the longest string literal (an escaped quote splits one: a lower bound)
        quotes = np.flatnonzero(raw == ord('"'))
        quotes = quotes[: quotes.size // 2 * 2]
        lengths = quotes[1::2] - quotes[0::2] - 1
        where = "a text value"
    else:  # the longest line bounds the longest cell (a quoted cell may span lines)
        bounds = np.concatenate(([-1], np.flatnonzero(raw == 10), [raw.size]))
        lengths = np.diff(bounds) - 1
        where = "line {line:,}"
    longest = int(lengths.max()) if lengths.size else 0
    if longest > MAX_CELL_BYTES:
        line = int(np.argmax(lengths)) + 1
        raise InvalidInputError(
            f"{filename}: {where.format(line=line)} is {_mb(longest)} long; cells longer "
            f"than {_mb(MAX_CELL_BYTES)} are not accepted. A table of results needs numbers "
            "and short labels: move long texts out of the file")
    needed = raw.size * factor
    if needed > cap:
        raise _too_much_memory(filename, needed, cap, "the file")


def check_json_depth(text, max_depth: int, *, what: str = "the JSON text") -> None:
    """Refuse JSON nested deeper than ``max_depth`` before it is parsed.

    Python's parser recurses once per level: ``[`` x 50,000 ends in a RecursionError.
    Brackets inside strings do not count.

    Raises
    ------
    InvalidInputError
        Naming the depth and the limit.

    Examples
    --------
    >>> check_json_depth('{"a": [1, "[[["]}', 2)
    >>> check_json_depth("[[[1]]]", 2)
    Traceback (most recent call last):
    ...
    copa_dash.core.errors.InvalidInputError: the JSON text nests 3 levels deep; at most 2 are accepted
    """
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    if not text or (b"[" not in text and b"{" not in text):
        return
    # drop string literals (escapes included), then follow the brackets with numpy
    stripped = re.sub(rb'"(?:[^"\\]|\\.)*"?', b"", text, flags=re.DOTALL)
    raw = np.frombuffer(stripped, dtype=np.uint8)
    steps = ((raw == ord("[")) | (raw == ord("{"))).astype(np.int32)
    steps -= ((raw == ord("]")) | (raw == ord("}"))).astype(np.int32)
    depth = int(np.cumsum(steps).max(initial=0))
    if depth > max_depth:
        raise InvalidInputError(
            f"{what} nests {depth:,} levels deep; at most {max_depth} are accepted")


# ---- Parquet ---------------------------------------------------------------------------

PARQUET_FOOTER = "not a valid Parquet file (its footer or schema cannot be read)"
PARQUET_PAGES = ("cannot read the Parquet data (a page is damaged or uses an encoding this "
                 "reader does not take)")


def unreadable_parquet(filename: str, exc: BaseException, what: str) -> InvalidInputError:
    """The refusal of a Parquet file pyarrow could not read: ``what`` failed (PARQUET_FOOTER or
    PARQUET_PAGES); the library's own words go to the log only."""
    logger.info("%s: %s", filename, exc)
    return InvalidInputError(f"{filename}: {what}; save it again from the program that wrote it")


def _check_parquet(data: bytes, filename: str, limits, cap: int) -> None:
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        meta, schema = parquet.metadata, parquet.schema_arrow
    except Exception as exc:  # noqa: BLE001 - pyarrow on untrusted bytes
        raise unreadable_parquet(filename, exc, PARQUET_FOOTER) from None
    n_rows, n_columns = meta.num_rows, len(schema)
    if meta.num_row_groups > MAX_ROW_GROUPS:
        raise InvalidInputError(
            f"{filename}: the file has {meta.num_row_groups:,} row groups; at most "
            f"{MAX_ROW_GROUPS:,} are accepted (write it with larger row groups)")
    # rows, columns and cells: checked from the same footer by the Parquet reader itself
    # A nested column of numbers is bounded by its stored size (below) and refused cell by
    # cell by the reader; text inside lists escapes the dictionary count, so it goes now.
    nested = [f.name for f in schema if pa.types.is_nested(f.type) and _has_text(f.type)]
    if nested:
        raise InvalidInputError(
            f"{filename}: column {nested[0]!r} holds lists or records of text; a table of "
            "results needs one number or text per cell")
    stored = sum(meta.row_group(g).column(c).total_uncompressed_size
                 for g in range(meta.num_row_groups) for c in range(meta.num_columns))
    if stored > cap:
        raise _too_much_memory(filename, stored, cap, "the Parquet data")
    text_columns = [f.name for f in schema if _is_text(f.type)]
    # Plain-encoded text takes no more room expanded than its pages say (a length and the
    # bytes of each value), so its size comes from the footer without reading a page: a
    # 23 KB file of repeated 100 KB strings grew a worker by 460 MB while this check read
    # it only to refuse it. Only chunks with a dictionary page are read, and of them the
    # dictionary and the indices: there a short file can stand for a huge text.
    positions = {meta.schema.column(c).path: c for c in range(meta.num_columns)}
    text_bytes, with_dictionary = 0, []
    for name in text_columns:
        column = positions.get(name)
        if column is None:
            with_dictionary.append(name)
            continue
        chunks = [meta.row_group(g).column(column) for g in range(meta.num_row_groups)]
        if any(chunk.has_dictionary_page for chunk in chunks):
            with_dictionary.append(name)
        else:
            text_bytes += sum(chunk.total_uncompressed_size for chunk in chunks)
    if (stored + text_bytes) * PARQUET_COPIES > cap:
        raise _too_much_memory(filename, (stored + text_bytes) * PARQUET_COPIES, cap,
                               "the Parquet text")
    if with_dictionary:
        try:  # dictionary-encoded read: each distinct string once, plus an index per row
            compact = pq.ParquetFile(pa.BufferReader(data), read_dictionary=with_dictionary)
            for group in range(meta.num_row_groups):
                table = compact.read_row_group(group, columns=with_dictionary)
                for name in with_dictionary:
                    for chunk in table.column(name).chunks:
                        if not pa.types.is_dictionary(chunk.type):
                            chunk = chunk.dictionary_encode()
                        lengths = pc.binary_length(chunk.dictionary)
                        longest = pc.max(lengths).as_py() or 0
                        if longest > MAX_CELL_BYTES:
                            raise InvalidInputError(
                                f"{filename}: column {name!r} has a cell of {_mb(longest)}; "
                                f"cells longer than {_mb(MAX_CELL_BYTES)} are not accepted")
                        dense = pc.sum(pc.take(lengths, chunk.indices)).as_py() or 0
                        text_bytes += int(dense)
                        if (text_bytes + stored) * PARQUET_COPIES > cap:
                            needed = (text_bytes + stored) * PARQUET_COPIES
                            raise _too_much_memory(filename, needed, cap,
                                                   f"column {name!r}")
        except InvalidInputError:
            raise
        except Exception as exc:  # noqa: BLE001 - pyarrow on untrusted bytes
            raise unreadable_parquet(filename, exc, PARQUET_PAGES) from None
    needed = (stored + text_bytes + n_rows * n_columns * CELL_BYTES) * PARQUET_COPIES
    if needed > cap:
        raise _too_much_memory(filename, needed, cap, "the table")


def _is_text(arrow_type) -> bool:
    """Text or bytes, also dictionary-encoded (how pandas categoricals are stored)."""
    if pa.types.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return (pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)
            or pa.types.is_binary(arrow_type) or pa.types.is_large_binary(arrow_type))


def _has_text(arrow_type) -> bool:
    if _is_text(arrow_type):
        return True
    return any(_has_text(arrow_type.field(i).type) for i in range(arrow_type.num_fields))


# ---- Excel ------------------------------------------------------------------------------

def _check_xlsx(data: bytes, filename: str, cap: int) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            expanded = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError,
            NotImplementedError, RuntimeError) as exc:
        logger.info("%s: %s", filename, exc)  # the library's words stay in the log
        raise InvalidInputError(
            f"{filename}: not a valid .xlsx workbook "
            "(its zip archive cannot be read); open it and save it again as .xlsx or CSV") from None
    needed = expanded * TEXT_FACTOR
    if needed > cap:
        raise _too_much_memory(filename, needed, cap, "the workbook")
