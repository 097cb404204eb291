"""CSV export that a spreadsheet cannot mistake for formulas.

A cell whose text starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
run as a formula by Excel, LibreOffice and Google Sheets when the CSV is opened (CSV
injection, OWASP). Such text cells get a leading apostrophe, which spreadsheets show
as a text marker and never evaluate. Numeric, boolean and date columns are written as
values: ``-0.5`` in a number column is a number, not a formula, and stays exact.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def escape_cell(value):
    """Prefix ``'`` to text that a spreadsheet would evaluate; leave anything else alone.

    Examples
    --------
    >>> escape_cell("=1+1"), escape_cell("-x"), escape_cell("model-a"), escape_cell(-0.5)
    ("'=1+1", "'-x", 'model-a', -0.5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def _is_value_column(series: pd.Series) -> bool:
    dtype = series.dtype
    if isinstance(dtype, np.dtype):
        return dtype.kind in "biufcmM"
    return (pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype)
            or pd.api.types.is_datetime64_any_dtype(dtype))


def safe_frame(frame: pd.DataFrame, /) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell and column name escaped (see module notes).

    Parameters
    ----------
    frame : pandas.DataFrame
        Left unchanged.

    Returns
    -------
    pandas.DataFrame
        Same shape and column order; text columns become object columns.
    """
    columns = {}
    for position in range(frame.shape[1]):
        series = frame.iloc[:, position]
        if not _is_value_column(series):
            series = series.astype(object).map(escape_cell)
        columns[position] = series
    out = pd.DataFrame(columns, index=frame.index)
    out.columns = [escape_cell(str(name)) for name in frame.columns]
    return out


def safe_csv(frame: pd.DataFrame, /) -> str:
    """The table as CSV text, safe to open in a spreadsheet.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; its index is not written. Left unchanged.

    Returns
    -------
    str
        RFC 4180 CSV (comma, ``\\r\\n`` line ends, double quotes around any cell holding
        a comma, quote, ``\\r`` or ``\\n``) with a header.

    Notes
    -----
    Text cells and column names starting with ``= + - @ \\t \\r`` get a leading ``'``.
    Line ends are ``\\r\\n`` so that a cell holding a lone ``\\r`` is quoted too: with
    ``\\n`` line ends Python's csv writer leaves it bare, and a spreadsheet would start
    a new row there, with whatever follows (say ``=cmd()``) unescaped in its first cell.
    Missing values are empty cells. Cost: O(N K).

    Examples
    --------
    >>> safe_csv(pd.DataFrame({"model": ["=cmd()", "a\\r=b"], "err": [-0.5, 1.0]})).split("\\r\\n")
    ['model,err', "'=cmd(),-0.5", '"a\\r=b",1.0', '']
    """
    return safe_frame(frame).to_csv(index=False, lineterminator="\r\n")
