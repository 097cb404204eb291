"""Control characters and terminal escapes out of a table's names and text cells, on read.

A column named ``"acc\\x1b[2J"`` or a cell holding ``"\\x1b]8;;https://evil\\x07"`` came back
out of the CSV export, the CLI's tables and the page. What the reader removes, before any
other step sees the table:

- terminal escape sequences (CSI ``ESC [ ... letter``, OSC ``ESC ] ... BEL``, ESC + one
  character);
- in column names, every control or format character (Unicode categories Cc, Cf:
  NUL, newlines, bidi overrides), each replaced by a space, runs of spaces collapsed;
- in text cells, the same characters except tab and newline (a cell may hold lines).

Each kind of change is said once in the "What we read" notes.
"""

from __future__ import annotations

import re
import unicodedata

import pandas as pd

from .read_log import ReadLog

ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|.)?",
                     re.DOTALL)
#: C0 and C1 controls but tab and newline, DEL, and the bidi and zero-width format marks
_CELL_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
_ANY = re.compile(ESCAPES.pattern + "|" + _CELL_CONTROLS.pattern, re.DOTALL)


def clean_name(name) -> str:
    """A column name without escapes or control characters.

    Examples
    --------
    >>> clean_name("acc\\x1b[31m (red)\\x1b[0m\\n\\u202eevil")
    'acc (red) evil'
    """
    text = ESCAPES.sub("", str(name))
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)
    return " ".join(text.split())


def clean_cell(text: str) -> str:
    """A text cell without escapes or control characters (tabs and newlines stay).

    Examples
    --------
    >>> clean_cell("gpt\\x1b]8;;https://x.example\\x07-4\\x00\\r")
    'gpt-4'
    """
    return _CELL_CONTROLS.sub("", ESCAPES.sub("", text))


def strip_control_characters(frame: pd.DataFrame, log: ReadLog) -> pd.DataFrame:
    """``frame`` with clean column names and text cells (a copy when anything changed).

    Cost: one regular-expression scan of each text column, and a rewrite of the cells that
    hold anything to remove.
    """
    names = [clean_name(c) if isinstance(c, str) else c for c in frame.columns]
    changed_names = [str(old) != str(new) for old, new in zip(frame.columns, names)]
    out = frame
    if any(changed_names):
        out = frame.copy()
        out.columns = names
        log.add("removed control characters and terminal escapes from "
                f"{sum(changed_names)} column name{'s' if sum(changed_names) > 1 else ''}")
    cleaned_cells = 0
    for position in range(out.shape[1]):
        column = out.iloc[:, position]
        if not (pd.api.types.is_object_dtype(column) or pd.api.types.is_string_dtype(column)):
            continue
        texts = column.map(lambda v: isinstance(v, str), na_action="ignore").fillna(False)
        if not texts.any():
            continue
        hits = column[texts.astype(bool)].str.contains(_ANY, regex=True)
        hits = hits[hits.fillna(False).astype(bool)]
        if hits.empty:
            continue
        if out is frame:
            out = frame.copy()
        fixed = out.iloc[:, position].copy()
        fixed.loc[hits.index] = [clean_cell(v) for v in fixed.loc[hits.index]]
        out.isetitem(position, fixed)
        cleaned_cells += len(hits)
    if cleaned_cells:
        log.add(f"removed control characters and terminal escapes from {cleaned_cells} "
                f"text cell{'s' if cleaned_cells > 1 else ''}")
    return out
