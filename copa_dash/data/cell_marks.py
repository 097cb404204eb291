"""Numbers written with marks: ``56.5%``, ``61.1M``, ``7B``, ``$0.50``, ``69.75*``, ``1,234.5``, ``0,5``.

Exports of leaderboards and model cards write numbers the way people read them. The
rules here turn such a column into float64 and say what was done, once per column:

* a column is converted only when *every* present cell is a number with the same kind
  of mark (percent, a magnitude suffix, one currency) - a column mixing ``56%`` and
  ``abc`` stays text and gets a note that names the cells in the way;
* ``%`` is kept as the unit: ``56.5%`` is read as 56.5 with unit ``%`` (what the user
  sees stays on the axis; nothing is divided by 100);
* magnitude suffixes K, M, B (= G), T: the most common suffix becomes the unit and the
  other cells are scaled to it (``900K``, ``1.2B`` in a column of ``M`` -> 0.9, 1200);
  a bare number in such a column is a plain count and is scaled too;
* currency ($, EUR, GBP, JPY signs, before or after the number) becomes the unit;
* footnote marks (``*``, ``†``, ``‡`` at the end) are dropped;
* ``x ± s`` keeps the mean x (the spread is dropped, and said so);
* thousands separators follow the decimal mark: ``1,234.5`` with '.', ``1.234,5`` with ','.

Pandas and pyarrow parse plain numbers (``text_column``); they have no rule for units in
cells, so these rules are written here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .cell_parsing import MISSING_TOKENS, MISSING_WITH_UNIT, row_list

MAGNITUDES = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "b": 1e9, "G": 1e9, "T": 1e12}
_UNIT_OF_SUFFIX = {"k": "K", "b": "B", "G": "B"}  # one spelling per magnitude
CURRENCIES = {"$": "$", "€": "EUR", "£": "GBP", "¥": "JPY", "US$": "$", "USD": "$",
              "EUR": "EUR", "GBP": "GBP"}
FOOTNOTES = "*†‡§"
EXTRA_MISSING = frozenset({"—", "–", "?", "n.a.", "n/d", "x"})  # dashes of "no value"
_NUMBER = {
    ".": r"(?:[1-9]\d{0,2}(?:,\d{3})+(?:\.\d*)?|\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?",
    ",": r"(?:[1-9]\d{0,2}(?:\.\d{3})+(?:,\d*)?|\d+(?:,\d*)?|,\d+)(?:[eE][+-]?\d+)?",
}
_CURRENCY = r"(?:US\$|USD|EUR|GBP|[$€£¥])"


def _cell_regex(decimal: str) -> str:
    """The grammar of a number with marks (also valid RE2, for pyarrow's vectorised match)."""
    number = _NUMBER[decimal]
    return (rf"^(?P<cur1>{_CURRENCY})?\s*(?P<sign>[+\-\x{{2212}}])?\s*(?P<cur2>{_CURRENCY})?\s*"
            rf"(?P<num>{number})\s*(?P<suffix>%|[KkMBbGT]|{_CURRENCY})?"
            rf"\s*(?P<spread>(?:±|\+/-|\+-)\s*{number}\s*%?)?\s*(?P<mark>[{FOOTNOTES}]+)?$")


CELL_REGEX = {d: _cell_regex(d) for d in (".", ",")}
_MISSING_WITH_UNIT = re.compile(MISSING_WITH_UNIT)
_PATTERNS = {d: re.compile(r.replace("\\x{2212}", "\u2212")) for d, r in CELL_REGEX.items()}


@dataclass(frozen=True)
class Converted:
    """A text column read as numbers: the values, the unit found in the cells, what was done."""

    values: pd.Series
    unit: str | None
    changes: tuple[str, ...]  # plain words, e.g. "'%' removed (kept as the unit)"


def is_missing(text: str | None) -> bool:
    """True for an empty cell and the tokens :mod:`cell_parsing` treats as missing, plus dashes."""
    if text is None:
        return True
    lowered = text.strip().lower()
    return lowered in MISSING_TOKENS or lowered in EXTRA_MISSING or bool(
        _MISSING_WITH_UNIT.match(lowered))


def is_number_with_marks(cell: str) -> bool:
    """True for a number with marks under either decimal mark (``56,5 %``, ``61.1M``).

    Examples
    --------
    >>> is_number_with_marks("56,5 %"), is_number_with_marks("soon")
    (True, False)
    """
    return any(pattern.match(cell.strip()) for pattern in _PATTERNS.values())


def _plain(num: str, decimal: str) -> tuple[float, bool]:
    """Float of a matched number; True when it had thousands separators."""
    thousands = "," if decimal == "." else "."
    grouped = thousands in num
    return float(num.replace(thousands, "").replace(",", ".")), grouped


def convert_column(cells: list[str | None], *, decimal: str = ".") -> Converted | None:
    """Read a text column as numbers with marks, or None when the rules do not apply.

    Parameters
    ----------
    cells : list of str or None
        The column's stripped cells (None where missing).
    decimal : {".", ","}
        The file's decimal mark.

    Returns
    -------
    Converted or None
        None when some present cell is not a number with a mark, when the column mixes
        percent, currency and magnitude marks, or when nothing had a mark and the decimal
        mark is '.' (then the column is plain text: ``text_column`` already decided).

    Examples
    --------
    >>> c = convert_column(["61.1M", "1.2B", None, "900K"])
    >>> c.values.tolist()[:2], c.unit
    ([61.1, 1200.0], 'M')
    >>> convert_column(["56.5%", "n/a", "61%"]).values.tolist()[::2], convert_column(["a", "1%"])
    ([56.5, 61.0], None)
    """
    pattern = _PATTERNS[decimal]
    parsed = []
    for cell in cells:
        if cell is None or is_missing(cell):
            parsed.append(None)
            continue
        match = pattern.match(cell.strip())
        if match is None:
            return None
        parsed.append(match)
    present = [m for m in parsed if m is not None]
    if not present or any(re.match(r"0\d", m["num"]) for m in present):
        return None  # nothing, or leading zeros (007): ids keep them as text
    kinds = Counter()
    for m in present:
        cur = m["cur1"] or m["cur2"] or (m["suffix"] if m["suffix"] and
                                         m["suffix"] in CURRENCIES else None)
        if cur:
            kinds["currency:" + CURRENCIES[cur]] += 1
        elif m["suffix"] == "%":
            kinds["%"] += 1
        elif m["suffix"]:
            kinds["magnitude"] += 1
    if len(kinds) > 1:
        return None
    kind = next(iter(kinds), None)
    unit, scale_to = None, 1.0
    if kind == "%":
        unit = "%"
    elif kind and kind.startswith("currency:"):
        unit = kind.split(":", 1)[1]
    elif kind == "magnitude":
        suffixes = Counter(_UNIT_OF_SUFFIX.get(m["suffix"], m["suffix"]) for m in present
                           if m["suffix"])
        unit = suffixes.most_common(1)[0][0]
        scale_to = MAGNITUDES[unit]
    values = np.full(len(parsed), np.nan)
    grouped = marked = spread = rescaled = 0
    for i, m in enumerate(parsed):
        if m is None:
            continue
        value, had_groups = _plain(m["num"], decimal)
        grouped += had_groups
        if m["sign"] in ("-", "\u2212"):
            value = -value
        if kind == "magnitude":
            suffix = m["suffix"]
            factor = MAGNITUDES[suffix] if suffix else 1.0
            if suffix is None or _UNIT_OF_SUFFIX.get(suffix, suffix) != unit:
                rescaled += 1
            value = value * factor / scale_to
        values[i] = value
        marked += bool(m["mark"])
        spread += bool(m["spread"])
    changes = _describe(kind, unit, len(present), grouped, marked, spread, rescaled, decimal)
    if not changes and decimal == ".":
        return None  # plain numbers: text_column's job
    return Converted(pd.Series(values), unit, tuple(changes))


def _describe(kind, unit, n, grouped, marked, spread, rescaled, decimal) -> list[str]:
    changes = []
    if kind == "%":
        changes.append(f"'%' removed from {n} cells (kept as the unit)")
    elif kind and kind.startswith("currency:"):
        changes.append(f"the currency sign removed from {n} cells (unit {unit})")
    elif kind == "magnitude":
        text = f"{n} cells with K/M/B suffixes read in {_MAGNITUDE_WORDS[unit]} (unit {unit})"
        if rescaled:
            text += (f"; {rescaled} written with another suffix "
                     f"{'was' if rescaled == 1 else 'were'} scaled to it")
        changes.append(text)
    if grouped:
        sep = "," if decimal == "." else "."
        changes.append(f"thousands separators '{sep}' removed in {grouped} cells")
    if marked:
        changes.append(f"footnote marks ({FOOTNOTES}) dropped in {marked} cells")
    if spread:
        changes.append(f"the '± spread' dropped in {spread} cells (the mean is kept)")
    return changes


_MAGNITUDE_WORDS = {"K": "thousands", "M": "millions", "B": "billions", "T": "trillions"}


def near_miss(cells: list[str | None], *, decimal: str = ".") -> str | None:
    """Why a mostly-numeric text column was kept as text, in words, or None.

    A column where at least half of the present cells are numbers (with or without marks)
    but some are not: name the mark and the cells in the way, and the fix.

    Examples
    --------
    >>> near_miss(["56%", "61%", "soon", "70%"])
    "3 of 4 cells are numbers (like '56%') but row 3 ('soon') is not: kept as text; empty those cells (or write the number) to use the column as an objective"
    """
    pattern = _PATTERNS[decimal]
    present = [(i, c.strip()) for i, c in enumerate(cells) if c is not None and not is_missing(c)]
    if len(present) < 2:
        return None
    good = [(i, c) for i, c in present if pattern.match(c)]
    bad = [(i, c) for i, c in present if not pattern.match(c)]
    if not bad or len(good) * 2 < len(present):
        return None
    shown = ", ".join(repr(c) for _, c in bad[:3]) + (" ..." if len(bad) > 3 else "")
    return (f"{len(good)} of {len(present)} cells are numbers (like {good[0][1]!r}) but "
            f"{row_list([i for i, _ in bad], limit=3)} ({shown}) "
            f"{'is' if len(bad) == 1 else 'are'} not: kept as text; empty those cells (or "
            "write the number) to use the column as an objective")


# --------------------------------------------------------------------------- units in headers
_HEADER_UNIT = re.compile(r"^(?P<label>.*?\S)\s*[\(\[](?P<unit>[^()\[\]]{1,20})[\)\]]\s*"
                          r"(?P<rest>[↑↓⬆⬇️\s]*)$")
_KNOWN_UNITS = frozenset({
    "s", "sec", "secs", "seconds", "ms", "us", "µs", "ns", "min", "mins", "minutes", "h",
    "mj", "mwh", "w·s", "ws",
    "hr", "hrs", "hours", "days", "%", "b", "kb", "mb", "gb", "tb", "kib", "mib", "gib",
    "k", "m", "bn", "t", "kg", "g", "kwh", "wh", "j", "kj", "w", "kw", "$", "usd",
    "eur", "€", "gbp", "£", "flops", "gflops", "tflops", "macs", "gmacs", "kgco2", "kgco2e",
    "kg co2", "kg co2e", "gco2", "gco2e", "tokens", "ppl", "x", "dollars", "usd/m", "$/m",
})


def header_unit(name: str) -> tuple[str, str] | None:
    """``(label, unit)`` from a header ending in a unit: ``"Memory (MB)"`` -> ("Memory", "MB").

    Only units that read as units count: a known one (s, ms, MB, GB, %, $, kWh, ...) or a
    rate ``a/b`` (tokens/s, tokens/kWh). ``"Model (name)"`` has none.

    Examples
    --------
    >>> header_unit("Decode (tokens/s)"), header_unit("Model (name)")
    (('Decode', 'tokens/s'), None)
    """
    match = _HEADER_UNIT.match(str(name).strip())
    if match is None:
        return None
    unit = match["unit"].strip()
    lowered = unit.lower()
    if lowered in _KNOWN_UNITS or re.fullmatch(r"[\w$€£%.·]+\s*/\s*[\w$€£%.][\w$€£%. ]*", unit):
        return match["label"].strip(), unit
    return None
