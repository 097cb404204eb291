"""A small parser for booktabs LaTeX tables of results (``mean $\\pm$ std`` cells).

Written for DomainBed's ``results.tex`` but not specific to it: it tracks the current
``\\subsection`` and ``\\subsubsection`` titles and returns every ``tabular`` block with
its header and its body rows.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_HEADING = re.compile(r"\\(sub)?subsection\*?\{(.*)\}\s*$")
_PLUS_MINUS = re.compile(r"\$?\\pm\$?")
_COMMENT = re.compile(r"(?<!\\)%.*$")
_MISSING = {"", "x", "-", "--", "n/a", "nan"}


@dataclass(frozen=True)
class LatexTable:
    """One tabular block: where it sits, its header cells and its body rows (raw cells)."""

    section: str
    subsection: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def clean_cell(cell: str) -> str:
    r"""Strip ``\textbf{}`` / ``\textit{}``, escaped percent signs and surrounding space.

    >>> clean_cell(r" \textbf{+90\%}  ")
    '+90%'
    """
    text = re.sub(r"\\text(?:bf|it|rm|sc)\{([^{}]*)\}", r"\1", cell)
    text = text.replace(r"\%", "%").replace(r"\_", "_").replace(r"\&", "&")
    return " ".join(text.split())


def parse_cell(cell: str) -> tuple[float, float]:
    r"""Read ``"71.7 $\pm$ 0.1"`` as ``(71.7, 0.1)``; a bare number has NaN std.

    Missing markers (``X``, ``-``, empty) give ``(nan, nan)``.

    >>> parse_cell(r"71.7 $\pm$ 0.1")
    (71.7, 0.1)
    >>> parse_cell("51.5")
    (51.5, nan)
    >>> parse_cell("X")
    (nan, nan)

    Raises
    ------
    ValueError
        If the cell is neither a number, ``mean \pm std`` nor a missing marker.
    """
    text = clean_cell(cell)
    if text.lower() in _MISSING:
        return math.nan, math.nan
    parts = _PLUS_MINUS.split(text)
    if len(parts) > 2:
        raise ValueError(f"cannot read table cell {cell!r}")
    try:
        mean = float(parts[0].strip())
        std = float(parts[1].strip()) if len(parts) == 2 else math.nan
    except ValueError:
        raise ValueError(f"cannot read table cell {cell!r}") from None
    return mean, std


def _split_row(line: str) -> tuple[str, ...]:
    body = line.strip()
    body = body.removesuffix(r"\\")
    return tuple(clean_cell(c) for c in body.split("&"))


def parse_latex_tables(text: str) -> list[LatexTable]:
    r"""Return every ``tabular`` block of ``text`` with its section titles.

    The header is the first row after ``\toprule`` (or the first row when there is no
    rule); body rows are the rows after ``\midrule``. Rules, ``\hline`` and comments are
    skipped.

    >>> tex = r'''\subsection{S}
    ... \subsubsection{D}
    ... \begin{tabular}{lc}
    ... \toprule
    ... \textbf{Algorithm} & \textbf{A} \\
    ... \midrule
    ... ERM & 1.0 $\pm$ 0.1 \\
    ... \bottomrule
    ... \end{tabular}'''
    >>> t = parse_latex_tables(tex)[0]
    >>> t.section, t.subsection, t.header, t.rows
    ('S', 'D', ('Algorithm', 'A'), (('ERM', '1.0 $\\pm$ 0.1'),))

    Raises
    ------
    ValueError
        If a body row has a different number of cells than the header, or a tabular
        block is not closed.
    """
    tables: list[LatexTable] = []
    section = subsection = ""
    header: tuple[str, ...] | None = None
    rows: list[tuple[str, ...]] = []
    inside = False
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw_line).strip()
        heading = _HEADING.match(line)
        if heading and not inside:
            if heading.group(1):
                subsection = heading.group(2).strip()
            else:
                section, subsection = heading.group(2).strip(), ""
            continue
        if r"\begin{tabular}" in line:
            inside, header, rows = True, None, []
            continue
        if not inside:
            continue
        if r"\end{tabular}" in line:
            if header is None:
                raise ValueError(f"line {number}: tabular block without a header row")
            tables.append(LatexTable(section, subsection, header, tuple(rows)))
            inside = False
            continue
        if not line or re.fullmatch(r"\\(toprule|midrule|bottomrule|hline|cline\{.*\})", line):
            continue
        cells = _split_row(line)
        if header is None:
            header = cells
        elif len(cells) != len(header):
            raise ValueError(f"line {number}: {len(cells)} cells, the header has {len(header)}")
        else:
            rows.append(cells)
    if inside:
        raise ValueError("a tabular block is not closed")
    return tables
