"""Checks on the raw bytes of an upload, made before any parser sees them.

Size limits, the format named by the file's extension, magic bytes (a file must be what
its extension says), text decoding with the failing byte named, bounded decompression
(gzip, and the zip container of an ``.xlsx``), header names and the table's shape.
Nothing here unpickles or evaluates anything.
"""

from __future__ import annotations

import codecs
import gzip
import io
import logging
import os
import re
import zipfile
import zlib
from dataclasses import dataclass

from ..core.errors import InvalidInputError

logger = logging.getLogger(__name__)

MIB = 2**20
TEXT_FORMATS = ("csv", "tsv", "txt")
MARKUP_FORMATS = ("md", "tex")  # tables written as Markdown or LaTeX
FORMATS = (*TEXT_FORMATS, *MARKUP_FORMATS, "json", "parquet", "xlsx")
_EXTENSIONS = {"csv": "csv", "tsv": "tsv", "tab": "tsv", "txt": "txt", "json": "json",
               "parquet": "parquet", "pq": "parquet", "xlsx": "xlsx", "md": "md",
               "markdown": "md", "tex": "tex"}
_REFUSED = {
    "xls": "old binary Excel files (.xls) are not accepted; open the file in Excel or "
           "LibreOffice and save it as .xlsx or CSV (UTF-8)",
    "xlsm": "macro-enabled workbooks (.xlsm) are not accepted; save the sheet as .xlsx or CSV",
    "xlsb": "binary workbooks (.xlsb) are not accepted; save the sheet as .xlsx or CSV",
    "ods": "OpenDocument sheets (.ods) are not accepted; save the sheet as .xlsx or CSV",
    "pkl": "pickle files are never read: loading one can run arbitrary code; "
           "save the table as CSV or Parquet",
    "pickle": "pickle files are never read: loading one can run arbitrary code; "
              "save the table as CSV or Parquet",
}
_MAGIC = (  # (prefix, what it is) for files whose content betrays another format
    (b"PAR1", "a Parquet file"),
    (b"PK\x03\x04", "a zip archive (an .xlsx workbook is one)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
     "an old binary Office file (.xls) or a password-protected workbook"),
    (b"\x1f\x8b", "a gzip-compressed file"),
    (b"%PDF", "a PDF document"),
    (b"\x80\x04", "a Python pickle"), (b"\x80\x05", "a Python pickle"),
    (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
)


@dataclass(frozen=True)
class Limits:
    """Bounds on what :func:`~copa_dash.data.io.read_table` accepts.

    ``max_bytes`` bounds the file as given (checked before parsing);
    ``max_uncompressed_bytes`` bounds what a gzip file or an xlsx's zip may expand to;
    ``max_cells`` bounds rows x columns (memory). Defaults mirror ``Settings``.
    """

    max_bytes: int = 50 * MIB
    max_rows: int = 1_000_000
    max_columns: int = 500
    max_cells: int = 20_000_000
    max_uncompressed_bytes: int = 256 * MIB
    max_memory_bytes: int = 512 * MIB  # see copa_dash.data.read_limits

    def __post_init__(self):
        for name in ("max_bytes", "max_rows", "max_columns", "max_cells",
                     "max_uncompressed_bytes", "max_memory_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise InvalidInputError(f"'{name}' must be a positive integer, not {value!r}")


def _size_text(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB else f"{n:,} bytes"


def load_source(source, filename, limits: Limits) -> tuple[bytes, str]:
    """Return ``(content, filename)`` after checking the size, before any parsing.

    ``source`` is a path (str or os.PathLike) or bytes-like; a path is read at most
    ``max_bytes + 1`` bytes, so special files and files growing underneath are bounded.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        if filename is None:
            raise InvalidInputError("'filename' is required when 'source' is bytes")
        data = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        filename = os.path.basename(path) if filename is None else filename
        try:
            size = os.stat(path).st_size
            data = b""
            if size <= limits.max_bytes:
                with open(path, "rb") as handle:
                    data = handle.read(limits.max_bytes + 1)
        except (FileNotFoundError, NotADirectoryError):
            raise InvalidInputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InvalidInputError(f"{path}: is a directory, not a file") from None
        except PermissionError:
            raise InvalidInputError(f"{path}: permission denied") from None
        except (OSError, ValueError) as exc:
            raise InvalidInputError(f"{path}: cannot be read ({exc})") from None
        if size > limits.max_bytes:
            raise _too_big(filename, size, limits)
    else:
        raise InvalidInputError(
            f"'source' must be a file path or bytes, not {type(source).__name__}")
    if not isinstance(filename, str) or not filename.strip():
        raise InvalidInputError(f"'filename' must be a non-empty string, not {filename!r}")
    if len(data) > limits.max_bytes:
        raise _too_big(filename, len(data), limits)
    if not data:
        raise InvalidInputError(f"{filename}: the file is empty")
    return data, filename


def _too_big(filename: str, size: int, limits: Limits) -> InvalidInputError:
    return InvalidInputError(
        f"{filename}: the file is {_size_text(size)}, over the limit of "
        f"{_size_text(limits.max_bytes)}")


def format_of(filename: str) -> tuple[str, bool]:
    """``(format, gzipped)`` from the file name's extension (case-insensitive)."""
    name = filename.strip().lower()
    parts = name.rsplit(".", 2)
    gzipped = len(parts) >= 2 and parts[-1] == "gz"
    ext = (parts[-2] if gzipped and len(parts) == 3 else parts[-1]) if len(parts) > 1 else ""
    if ext in _REFUSED:
        raise InvalidInputError(f"{filename}: {_REFUSED[ext]}")
    fmt = _EXTENSIONS.get(ext)
    if fmt is None or (gzipped and fmt not in (*TEXT_FORMATS, *MARKUP_FORMATS, "json")):
        raise InvalidInputError(
            f"{filename}: cannot tell the format from the name; supported: .csv, .tsv, "
            ".txt, .md, .tex, .json (each optionally .gz), .parquet, .xlsx")
    return fmt, gzipped


def gunzip(data: bytes, filename: str, limits: Limits) -> bytes:
    """Decompress at most ``max_uncompressed_bytes`` (a gzip bomb stops there)."""
    if not data.startswith(b"\x1f\x8b"):
        raise InvalidInputError(f"{filename}: the name ends in .gz but the file is not gzip")
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as handle:
            out = handle.read(limits.max_uncompressed_bytes + 1)
    except (OSError, EOFError, zlib.error) as exc:
        logger.info("%s: %s", filename, exc)  # the library's words stay in the log
        raise InvalidInputError(
            f"{filename}: the gzip data is damaged "
            "(it cannot be decompressed to its end); compress it again") from None
    if len(out) > limits.max_uncompressed_bytes:
        raise InvalidInputError(
            f"{filename}: decompressed, the file is over "
            f"{_size_text(limits.max_uncompressed_bytes)}, the limit")
    if not out:
        raise InvalidInputError(f"{filename}: the file is empty once decompressed")
    return out


def check_magic(data: bytes, fmt: str, filename: str) -> None:
    """Raise unless the content looks like ``fmt`` (magic bytes, no NUL in text)."""
    if fmt == "parquet":
        if not (len(data) >= 12 and data[:4] == b"PAR1" and data[-4:] == b"PAR1"):
            raise InvalidInputError(
                f"{filename}: not a Parquet file (it {_what(data)}); Parquet files start "
                "and end with 'PAR1'")
    elif fmt == "xlsx":
        if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
            raise InvalidInputError(
                f"{filename}: this is an old binary .xls file or a password-protected "
                "workbook; save it as an unprotected .xlsx or as CSV (UTF-8)")
        if not data.startswith(b"PK\x03\x04"):
            raise InvalidInputError(
                f"{filename}: not an .xlsx workbook (it {_what(data)}); an .xlsx file is "
                "a zip archive")
    else:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            return
        for prefix, what in _MAGIC:
            if data.startswith(prefix):
                raise InvalidInputError(
                    f"{filename}: the name says {fmt.upper()} text but the file is {what}; "
                    "rename it with the right extension or export it as text")
        nul = data.find(b"\x00")
        if nul >= 0:
            raise InvalidInputError(
                f"{filename}: not a text file (byte offset {nul} is a NUL byte); the name "
                f"says {fmt.upper()} - is it a binary file, or UTF-16 without a byte-order mark?")


def _what(data: bytes) -> str:
    for prefix, what in _MAGIC:
        if data.startswith(prefix):
            return f"is {what}"
    return f"starts with {data[:8]!r}"


def decode_text(data: bytes, filename: str) -> str:
    """Decode UTF-8 (with or without BOM) or UTF-16 with a BOM; name the failing byte."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InvalidInputError(
                f"{filename}: the file starts like UTF-16 but byte offset {exc.start} "
                "cannot be decoded; save it as UTF-8") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (3 if data.startswith(codecs.BOM_UTF8) else 0)
        line = data.count(b"\n", 0, start) + 1
        raise InvalidInputError(
            f"{filename}: not UTF-8 text: byte 0x{data[start]:02x} at byte offset {start} "
            f"(line {line}) cannot be decoded. Save the file as UTF-8 (in Excel: 'CSV UTF-8'); "
            "a byte like this usually means Latin-1 / Windows-1252") from None


def check_zip(data: bytes, filename: str, limits: Limits) -> None:
    """Bound an xlsx zip before openpyxl opens it: members and total uncompressed size."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError,
            NotImplementedError, RuntimeError) as exc:  # zipfile raises all of these
        logger.info("%s: %s", filename, exc)  # the library's words stay in the log
        raise InvalidInputError(
            f"{filename}: not a valid .xlsx workbook "
            "(its zip archive cannot be read); open it and save it again as .xlsx or CSV") from None
    if len(members) > 10_000:
        raise InvalidInputError(f"{filename}: the workbook has {len(members)} parts, too many")
    total = sum(m.file_size for m in members)
    if total > limits.max_uncompressed_bytes:
        raise InvalidInputError(
            f"{filename}: the workbook expands to {_size_text(total)}, over the limit of "
            f"{_size_text(limits.max_uncompressed_bytes)}")


#: a sort button's text at the end of a header cell, as an HTML table export copies it
_SORT_WIDGET = re.compile(r"\s*\[\s*sort\s*\]\s*$", re.IGNORECASE)


def without_sort_widget(names: list[str], log=None) -> list[str]:
    """``names`` without a trailing sort-button text (``[ sort ]``), said in ``log``.

    Examples
    --------
    >>> without_sort_widget(["Model", "Mean win rate ↑ [ sort ]", "NSFW frac ↓ [sort]"])
    ['Model', 'Mean win rate ↑', 'NSFW frac ↓']
    """
    out = [_SORT_WIDGET.sub("", n) if n else n for n in names]
    changed = sum(a != b for a, b in zip(names, out))
    if changed and log is not None:
        log.add(f"Left '[ sort ]' (the text of a web table's sort button, copied with the "
                f"header) out of {changed} column name{'s' if changed > 1 else ''}, e.g. "
                f"{next(b for a, b in zip(names, out) if a != b)!r}.")
    return out


def check_header(names, filename: str, limits: Limits, log=None) -> list[str]:
    """Stripped column names, made unique and non-empty; too many columns is an error.

    With a ``log``, a column without a name is called ``column N`` (a spreadsheet's row
    labels, a pandas index); without one, that is an error.

    A name seen before gets `` (2)``, `` (3)``, ... (real exports repeat names: a fairness
    benchmark writes ``0-accuracy`` once per protected attribute); each renaming is noted
    in ``log`` (a :class:`~copa_dash.data.read_log.ReadLog`) when one is given.

    The text of a table's sort button copied with its header (``Mean win rate ↑ [ sort ]``
    from a HELM/HEIM page) is left out of the name, said once in ``log``
    (:func:`without_sort_widget`); an arrow that says which way is better stays.
    """
    names = ["" if n is None else str(n).strip() for n in names]
    names = without_sort_widget(names, log)
    if len(names) > limits.max_columns:
        raise InvalidInputError(
            f"{filename}: the table has {len(names)} columns, over the limit of "
            f"{limits.max_columns}")
    empty = [i + 1 for i, n in enumerate(names) if not n]
    if empty:
        where = ", ".join(map(str, empty[:5])) + (" ..." if len(empty) > 5 else "")
        if log is None:
            raise InvalidInputError(
                f"{filename}: the header has no name for column{'s' if len(empty) > 1 else ''}"
                f" {where} (counting from 1); give every column a name")
        names = [n or f"column {i + 1}" for i, n in enumerate(names)]
        log.add(f"The header has no name for column{'s' if len(empty) > 1 else ''} {where} "
                f"(counting from 1); called {'them' if len(empty) > 1 else 'it'} "
                f"{', '.join(repr(f'column {i}') for i in empty[:5])}.")
    taken = set(names)
    seen: dict[str, int] = {}
    renamed = []
    out = []
    for i, name in enumerate(names):
        if name in seen:
            k = 2
            while f"{name} ({k})" in taken:
                k += 1
            new = f"{name} ({k})"
            taken.add(new)
            renamed.append(f"{name!r} (columns {seen[name] + 1} and {i + 1}) -> {new!r}")
            out.append(new)
        else:
            seen[name] = i
            out.append(name)
    if renamed and log is not None:
        shown = "; ".join(renamed[:6]) + (f"; and {len(renamed) - 6} more" if len(renamed) > 6
                                          else "")
        log.add(f"The header repeats {len(renamed)} name{'s' if len(renamed) > 1 else ''}; "
                f"the later copies were renamed: {shown}.")
    return out


def check_shape(n_rows: int, n_columns: int, filename: str, limits: Limits) -> None:
    """Raise if the table has fewer than 2 or too many rows, or too many cells."""
    if n_rows > limits.max_rows:
        raise InvalidInputError(
            f"{filename}: the table has {n_rows:,} rows, over the limit of {limits.max_rows:,}")
    if n_rows * n_columns > limits.max_cells:
        raise InvalidInputError(
            f"{filename}: the table has {n_rows:,} rows x {n_columns} columns, over the "
            f"limit of {limits.max_cells:,} cells")
    if n_rows == 0:
        raise InvalidInputError(f"{filename}: the table has a header but no data rows")
    if n_rows < 2:
        raise InvalidInputError(
            f"{filename}: the table has only 1 data row; comparing models needs at least 2")
