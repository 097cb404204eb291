"""Tables written as text: the shape of a delimited file, and Markdown / LaTeX tables.

Rules only; the parsing of delimited records is Python's ``csv`` and pyarrow's (in
``table_formats``). What is decided here:

* the separator: of the candidates, the one that splits the most sample lines into the
  same number (> 1) of fields - a ``;`` file with decimal commas splits consistently on
  ``;`` only, since its header has no comma. (``csv.Sniffer`` also weighs characters
  inside values and picks ',' on such files, which is why this is written out.)
* the decimal mark: ',' when the separator is not ',' and more cells look like ``0,5`` /
  ``1.234,5`` than like ``0.5`` / ``1,234.5`` (what Excel writes in most of Europe);
* the header row: the first row with at least two named cells and at least 60 % as many
  as the widest of the first rows - title lines, blank lines and "Exported on ..." lines
  above it are skipped (and said);
* Markdown pipe tables (``| a | b |`` with a ``|---|`` rule) and LaTeX ``tabular``
  environments (rules, ``\\textbf{}``, ``$\\pm$``, ``\\%``, ``\\multicolumn``) as rows of cells.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter

DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
CANDIDATES = {"csv": (",", ";", "\t", "|"), "tsv": ("\t",), "txt": ("\t", ",", ";", "|")}
SAMPLE_CHARS = 64 * 1024
HEADER_SEARCH_ROWS = 30

_EU_NUMBER = re.compile(r"^[$€£]?\s*[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+),\d+\s*(?:%|[KMBGT])?\s*[*†‡]*$")
_US_NUMBER = re.compile(r"^[$€£]?\s*[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)\.\d+\s*(?:%|[KMBGT])?"
                        r"\s*[*†‡]*$")


def sample_rows(text: str, delimiter: str, limit: int = 200) -> list[list[str]]:
    """The first non-blank records of ``text`` (at most ``limit``), split on ``delimiter``."""
    sample = text[:SAMPLE_CHARS]
    if len(text) > SAMPLE_CHARS and "\n" in sample:
        sample = sample[:sample.rindex("\n")]
    rows = []
    try:
        for row in csv.reader(io.StringIO(sample, newline=""), delimiter=delimiter):
            if any(cell.strip() for cell in row):
                rows.append(row)
                if len(rows) >= limit:
                    break
    except csv.Error:
        pass  # a broken quote in the sample: the real parse will name the line
    return rows


def sniff_delimiter(text: str, fmt: str) -> str:
    """The separator of a delimited text (see the module notes); the format's first if none splits.

    Parameters
    ----------
    text : str
        The file's text; only its first ``SAMPLE_CHARS`` characters are read.
    fmt : {"csv", "tsv", "txt"}
        The format named by the file's suffix; ``CANDIDATES[fmt]`` lists the separators
        tried, the format's usual one first.

    Examples
    --------
    A European export: semicolons between the cells, decimal commas inside them.

    >>> sniff_delimiter("model;acc;params\\nA;0,5;1,2\\nB;0,7;3,4\\n", "csv")
    ';'

    A plain comma-separated file:

    >>> sniff_delimiter("a,b\\n1,2\\n", "csv")
    ','
    """
    candidates = CANDIDATES[fmt]
    best, best_score = candidates[0], (0.0, 0)
    for rank, delimiter in enumerate(candidates):
        if delimiter not in text[:SAMPLE_CHARS]:
            continue
        counts = [len(row) for row in sample_rows(text, delimiter)]
        if not counts:
            continue
        mode, freq = Counter(counts).most_common(1)[0]
        if mode < 2:
            continue
        score = (freq / len(counts), -rank)
        if score > best_score:
            best, best_score = delimiter, score
    return best


def sniff_decimal(rows: list[list[str]], delimiter: str) -> str:
    """',' when the file writes decimals with a comma (never for ',' separated files), else '.'.

    Examples
    --------
    >>> sniff_decimal([["a", "0,5"], ["b", "1.234,5"]], ";"), sniff_decimal([["a", "0.5"]], ";")
    (',', '.')
    """
    if delimiter == ",":
        return "."
    eu = us = 0
    for row in rows:
        for cell in row:
            cell = cell.strip()
            eu += bool(_EU_NUMBER.match(cell))
            us += bool(_US_NUMBER.match(cell))
    return "," if eu > us else "."


def header_index(rows: list[list]) -> int:
    """Index of the header among the first rows (title and note lines above it skipped).

    Examples
    --------
    >>> header_index([["Results 2024", "", ""], ["model", "acc", "time"], ["a", "1", ""]])
    1
    """
    head = rows[:HEADER_SEARCH_ROWS]
    named = [sum(1 for cell in row if cell is not None and str(cell).strip()) for row in head]
    if not named:
        return 0
    need = max(2, -(-max(named) * 3 // 5))
    for i, n in enumerate(named):
        if n >= min(need, max(named)):
            return i
    return 0


# --------------------------------------------------------------------------- Markdown
_MD_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_EMPHASIS = re.compile(r"(?<!\w)(\*\*|__|\*|_|`)(\S.*?)\1(?!\w)")  # not inside a_name_


def looks_like_markdown(text: str) -> bool:
    """True when the text holds a pipe table with a ``|---|`` rule line."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return len(lines) >= 3 and any(_MD_RULE.match(line) and "-" in line for line in lines[:40]) \
        and sum(line.count("|") >= 1 for line in lines) >= 3


def _md_cells(line: str) -> list[str]:
    line = line.strip()
    line = line.removeprefix("|")
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    cells = re.split(r"(?<!\\)\|", line)
    out = []
    for cell in cells:
        cell = _MD_LINK.sub(r"\1", cell.replace("\\|", "|"))
        cell = _MD_EMPHASIS.sub(r"\2", cell)
        cell = re.sub(r"<br\s*/?>", " ", cell)
        out.append(cell.strip())
    return out


def markdown_rows(text: str) -> tuple[list[list[str]], list[str]]:
    """Rows of cells of the first pipe table, and the lines left out (around the table).

    Examples
    --------
    >>> markdown_rows("| Model | Acc |\\n|---|--:|\\n| **a** | 56.5% |\\n")[0]
    [['Model', 'Acc'], ['a', '56.5%']]
    """
    lines = text.splitlines()
    rows, skipped, started = [], [], False
    for line in lines:
        stripped = line.strip()
        if "|" in stripped and not (started and not stripped):
            if _MD_RULE.match(stripped):
                started = True
                continue
            rows.append(_md_cells(stripped))
            started = started or bool(rows)
        elif stripped:
            if rows:
                skipped.append(stripped)
                if started:
                    break
            else:
                skipped.append(stripped)
    return rows, skipped


# --------------------------------------------------------------------------- LaTeX
_TABULAR = re.compile(r"\\begin\{(tabular\*?|tabularx|longtable)\}(?:\[[^\]]*\])?"
                      r"(?:\{[^{}]*\})?\{(?:[^{}]|\{[^{}]*\})*\}(.*?)\\end\{\1\}", re.DOTALL)
_RULES = re.compile(r"\\(?:toprule|midrule|bottomrule|hline|endhead|endfoot|endfirsthead|"
                    r"noalign\{[^}]*\})(?:\[[^\]]*\])?|\\(?:cline|cmidrule)(?:\([^)]*\))?"
                    r"\{[^}]*\}")
_WRAPPERS = re.compile(r"\\(?:textbf|textit|emph|mathbf|mathrm|text|underline|textsc|"
                       r"texttt|bf|it|makecell|mbox)\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_MULTI = re.compile(r"\\multi(?:column|row)\{(\d+)\}\{[^}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}")


def looks_like_latex(text: str) -> bool:
    """True when the text holds a ``tabular`` environment or ``&``-separated ``\\\\`` rows."""
    return bool(_TABULAR.search(text)) or (text.count("&") >= 2 and text.count("\\\\") >= 2)


def _latex_cell(cell: str) -> list[str]:
    span = 1
    multi = _MULTI.search(cell)
    if multi:
        span, cell = int(multi.group(1)) if "multicolumn" in multi.group(0) else 1, \
            multi.group(2)
    for _ in range(3):  # nested wrappers: \textbf{\emph{x}}
        cell = _WRAPPERS.sub(r"\1", cell)
    cell = re.sub(r"\$?\\pm\$?", " ± ", cell)
    cell = cell.replace("\\%", "%").replace("\\_", "_").replace("\\&", "&").replace("\\$", "$")
    cell = cell.replace("~", " ").replace("$", "")
    cell = re.sub(r"\\[a-zA-Z]+\*?(\[[^\]]*\])?", "", cell)
    cell = re.sub(r"[{}]", "", cell)
    cell = re.sub(r"\s+", " ", cell).strip()
    return [cell] + [""] * (span - 1)


def latex_rows(text: str) -> tuple[list[list[str]], int]:
    """Rows of cells of the first ``tabular`` (or of bare ``a & b \\\\`` rows) and the number of tables.

    Examples
    --------
    >>> latex_rows(r"\\begin{tabular}{lc}\\toprule \\textbf{Algo} & \\textbf{+90\\%} \\\\ "
    ...            r"\\midrule ERM & 71.7 $\\pm$ 0.1 \\\\ \\bottomrule\\end{tabular}")[0]
    [['Algo', '+90%'], ['ERM', '71.7 ± 0.1']]
    """
    tables = _TABULAR.findall(text)
    body = tables[0][1] if tables else text
    body = re.sub(r"(?<!\\)%.*", "", body)  # comments
    body = _RULES.sub("", body)
    rows = []
    for raw in re.split(r"\\\\(?:\[[^\]]*\])?", body):
        if not raw.strip() or "&" not in raw and not rows:
            continue
        cells = []
        for cell in re.split(r"(?<!\\)&", raw):
            cells.extend(_latex_cell(cell))
        if any(cells):
            rows.append(cells)
    return rows, len(tables)
