"""Where a report's data come from and which rows it used: the dataset's provenance (source,
snapshot, licence, the cleaning notes of ``datasets/PROVENANCE.md``) and the row accounting
(rows in the table, left out for a missing objective, excluded by each constraint)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

import numpy as np

from ..data.bundled import datasets_dir
from ..data.filters import RowFilter

_YEAR = re.compile(r"\b(19|20)\d{2}\b")
_COMMIT = re.compile(r"\bcommit ([0-9a-f]{7,40})\b")


@dataclass(frozen=True)
class Provenance:
    """What the report says about the dataset."""

    name: str
    title: str
    kind: str            # "bundled" | "uploaded" | "table"
    source: str
    snapshot: str
    licence: str
    description: str
    cleaning: str        # the dataset's paragraph of PROVENANCE.md ("" when none)
    content_sha256: str  # of the table as CSV, so a reader can check they hold the same data


@dataclass(frozen=True)
class RowAccount:
    """How many rows the table has and why some were not candidates."""

    n_table: int
    n_missing: int                       # left out: a chosen objective is missing
    missing_by_objective: tuple          # ((objective, rows missing it), ...)
    excluded_by: tuple                   # ((constraint in words, rows it excludes), ...)
    n_candidates: int                    # rows the pick was chosen among
    n_population: int                    # rows u was computed over


def provenance(opened, *, datasets_folder=None) -> Provenance:
    """The provenance of an opened dataset (see :mod:`copa_dash.services.catalog`)."""
    cleaning = ""
    if opened.kind == "bundled":
        cleaning = cleaning_notes(opened.ref, datasets_folder=datasets_folder)
    return Provenance(
        name=opened.ref, title=opened.title, kind=opened.kind, source=opened.source or "",
        snapshot=snapshot_of(opened.title, opened.source or ""), licence=opened.licence or "",
        description=opened.description or "", cleaning=cleaning,
        content_sha256=table_digest(opened.table.frame))


def snapshot_of(title: str, source: str) -> str:
    """The snapshot a title or source names: the title's bracketed date (``snapshot
    2025-01-10``, ``January 2025``) and the source commit, when given."""
    parts = []
    bracket = re.search(r"\(([^()]*)\)\s*$", title or "")
    if bracket and _YEAR.search(bracket.group(1)):
        parts.append(bracket.group(1))
    commit = _COMMIT.search(source or "")
    if commit:
        parts.append(f"source commit {commit.group(1)[:12]}")
    return "; ".join(parts) or "not stated"


def cleaning_notes(name: str, *, datasets_folder=None) -> str:
    """The paragraph of ``PROVENANCE.md`` about dataset ``name`` ("" when it has none).

    A paragraph starts with the name in bold (``**name**`` or ``**name / other**``) and runs
    to the next blank line.
    """
    path = (datasets_folder or datasets_dir()) / "PROVENANCE.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return ""
    heads = []
    for paragraph in re.split(r"\n\s*\n", text):
        head = re.match(r"\*\*([^*]+)\*\*", paragraph.strip())
        if head:
            names = [n.strip(" .") for n in re.split(r"\s*/\s*|\s*\(", head.group(1))]
            plain = " ".join(paragraph.replace("**", "").replace("`", "").split())
            heads.append((names, plain))
    for names, paragraph in heads:
        if name in names:
            return paragraph
    for names, paragraph in heads:        # domainbed-pacs is described under domainbed
        if any(n and name.startswith(n + "-") for n in names):
            return paragraph
    return ""


def table_digest(frame) -> str:
    """SHA-256 of the table written as CSV (stable for the same content)."""
    return hashlib.sha256(frame.to_csv(index=False).encode("utf-8")).hexdigest()


def row_account(table, problem, row_filter: RowFilter) -> RowAccount:
    """Count the rows of ``table`` that the selection ``problem`` left out, and why."""
    names = list(problem.preferences.objectives)
    missing = table.missing_counts(names)
    excluded = []
    frame = table.frame
    scored = np.zeros(len(frame), dtype=bool)
    scored[problem.rows] = True
    for words, single in _single_constraints(row_filter):
        fails = scored & ~single.mask(frame)
        excluded.append((words, int(fails.sum())))
    return RowAccount(
        n_table=len(frame), n_missing=int(problem.n_missing),
        missing_by_objective=tuple((n, int(missing.get(n, 0))) for n in names
                                   if missing.get(n, 0)),
        excluded_by=tuple(excluded), n_candidates=int(problem.eligible.sum()),
        n_population=int(problem.n_population))


def _single_constraints(row_filter: RowFilter):
    for condition in row_filter.conditions:
        yield (f"{condition.column} {condition.operator} {condition.value}",
               RowFilter(conditions=(condition,)))
    for column, (low, high) in row_filter.ranges.items():
        words = " and ".join(t for t in (f"{column} >= {low:g}" if low is not None else "",
                                         f"{column} <= {high:g}" if high is not None else "") if t)
        yield words or f"{column} has a value", RowFilter(ranges={column: (low, high)})
    for column, values in row_filter.sets.items():
        yield (f"{column} is one of {', '.join(map(str, values))}",
               RowFilter(sets={column: list(values)}))
