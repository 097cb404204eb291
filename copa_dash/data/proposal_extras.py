"""What :func:`~copa_dash.data.proposal.propose` adds to the guess of each column.

* units from sibling columns: ``Result`` with ``Result_Units`` (or a lone ``Units``
  column right after it) gets that unit when it is the same in every row;
* fairness targets: a ratio best at 1 (disparate impact, ``dp_ratio``) or a difference
  best at 0 (``eo_diff``) is not a min or max goal; the proposal adds a derived objective
  ``|1 - x|`` or ``|x|`` to minimise (computed by :func:`add_derived`), keeps the column
  itself as metadata and says so in the notes;
* the uncertainty pairing: each spread column (``standard_error``) -> the metric it
  belongs to, ``{metric: (kind, column)}``;
* wide tables: past :data:`SHORT_SET` objectives, the first column of each family
  (``race-FPR``, ``race-TPR``, ... share the family ``race``) stays an objective and the rest
  go under "more columns" (metadata, flagged ``more``) - one control on the upload page
  takes them back, a family at a time or all at once.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
import pandas as pd

from .cell_parsing import row_list
from .column_kinds import uncertainty_kind, uncertainty_of
from .role_guess import _unit_direction, _words, name_terms
from .vocabulary import vocabulary

SHORT_SET = 12
_RESULT_NAMES = frozenset({"result", "value", "score", "metric", "measurement"})
_DIFF_WORDS = frozenset({"diff", "difference", "gap", "disparity"})
TRANSFORMS = {"abs_one_minus": "|1 - {}|", "abs": "|{}|"}


# --------------------------------------------------------------------------- units
def _unit_owner(column: str, columns: list[str]) -> str | None:
    """The column whose unit ``column`` holds: ``Result_Units`` -> ``Result``; a lone
    ``Units`` -> the column to its left."""
    words = _words(column, joined=False)
    if not words or words[-1] not in vocabulary().unit_column_words:
        return None
    stem = "_".join(words[:-1])
    if stem:
        return next((c for c in columns if "_".join(_words(c, joined=False)) == stem), None)
    return ""   # a lone "Units": see _lone_owner


def _lone_owner(frame: pd.DataFrame, column: str) -> str | None:
    """The numeric column a lone ``Units`` column describes: one named like a result
    (``Result``, ``Value``, ``Score``), else the nearest numeric column to its left."""
    columns = [str(c) for c in frame.columns]
    numeric = [c for c in columns if pd.api.types.is_numeric_dtype(frame[c].dtype)
               and not pd.api.types.is_bool_dtype(frame[c].dtype)]
    named = [c for c in numeric if "_".join(_words(c, joined=False)) in _RESULT_NAMES]
    if named:
        return named[0]
    left = [c for c in numeric if columns.index(c) < columns.index(column)]
    return left[-1] if left else None


def _owners(frame: pd.DataFrame):
    columns = [str(c) for c in frame.columns]
    for column in columns:
        owner = _unit_owner(column, columns)
        if owner == "":
            owner = _lone_owner(frame, column)
        if owner is not None and pd.api.types.is_numeric_dtype(frame[owner].dtype):
            yield column, owner


def units_from_siblings(frame: pd.DataFrame) -> dict:
    """``{column: unit}`` read from unit columns beside them (one unit in every row).

    Examples
    --------
    >>> units_from_siblings(pd.DataFrame({"Result": [1.0, 2.0], "Result_Units":
    ...                                   ["Samples/s", "Samples/s"]}))
    {'Result': 'Samples/s'}
    """
    out = {}
    for column, owner in _owners(frame):
        units = frame[column].dropna().astype(str).str.strip().unique()
        if len(units) == 1 and units[0]:
            out[owner] = units[0]
    return out


def mixed_units(frame: pd.DataFrame) -> dict:
    """``{column: (unit column, units)}`` where a sibling unit column holds several units.

    Examples
    --------
    >>> mixed_units(pd.DataFrame({"Result": [5.0, 6.0], "has_power": ["False", "False"],
    ...                           "Units": ["Queries/s", "Samples/s"]}))
    {'Result': ('Units', ('Queries/s', 'Samples/s'))}
    """
    out = {}
    for column, owner in _owners(frame):
        units = sorted(frame[column].dropna().astype(str).str.strip().unique())
        if len(units) > 1:
            out[owner] = (column, tuple(units))
    return out


def mixed_direction(unit_column: str, units) -> tuple[str | None, str]:
    """The direction every unit of a sibling unit column agrees on (``Queries/s`` and
    ``Samples/s`` are both rates: max), and why; None when they disagree or say nothing."""
    found = {_unit_direction(u)[0] for u in units}
    if len(found) != 1 or None in found:
        return None, ""
    direction = found.pop()
    return direction, (f"every unit in {unit_column!r} ({', '.join(units[:4])}) reads as "
                       + ("a rate: more is better" if direction == "max" else "a cost"))


# --------------------------------------------------------------------------- fairness
def fairness_target(column: str) -> str | None:
    """``"abs_one_minus"`` for a ratio best at 1, ``"abs"`` for a difference best at 0.

    Examples
    --------
    >>> fairness_target("DIbinary"), fairness_target("eo_diff"), fairness_target("accuracy")
    ('abs_one_minus', 'abs', None)
    """
    vocab = vocabulary()
    words = _words(column, joined=False)
    terms = [t for t, _ in name_terms(words, vocab.best_at_one | vocab.best_at_zero)]
    if not terms:
        terms = [t for t, _ in name_terms(_words(column), vocab.best_at_one
                                          | vocab.best_at_zero)]
    if terms:
        return "abs_one_minus" if terms[0] in vocab.best_at_one else "abs"
    # a metric compared between groups: "race-accuracyRatio", "0-TPR_over_1-TPR" (best at 1),
    # "sex-TPRDiff", "diff:1-accuracyto0-accuracy" (best at 0); "compression_ratio" is not
    if not name_terms(words, vocab.maximise | vocab.minimise):
        return None
    if words[-1] == "ratio" or "over" in words[1:-1]:
        return "abs_one_minus"
    if words[-1] in _DIFF_WORDS or words[0] in _DIFF_WORDS:
        return "abs"
    return None


def target_guesses(column, transform, unit, label, *, make, why="") -> list:
    """The column kept as metadata and the derived objective to minimise, built with
    ``make`` (:class:`~copa_dash.data.proposal.ColumnGuess`); ``why`` says what decided
    the best value when the values did (:mod:`~copa_dash.data.fairness_values`)."""
    best = "1" if transform == "abs_one_minus" else "0"
    derived = TRANSFORMS[transform].format(column)
    because = f" ({why})" if why else ""
    return [make(column, "metadata", unit=unit, label=label,
                 reason=f"best at {best}{because}, neither min nor max: {derived!r} is "
                        "proposed instead",
                 confidence="likely"),
            make(derived, "objective", "min", unit=unit,
                 reason=f"the distance of {column!r} from {best}, its best value{because}",
                 confidence="likely", source=column, transform=transform)]


def derived_notes(guesses) -> list[str]:
    derived = [g for g in guesses if g.source is not None and g.role == "objective"]
    if not derived:
        return []
    return ["Fairness measures are best at 1 (ratios, or differences stored as 1 - difference)"
            " or 0 (differences), so each is "
            "replaced by its distance from that value, minimised: " + ", ".join(
                f"{g.name!r}" for g in derived[:6]) + (" ..." if len(derived) > 6 else "")
            + " (the original columns stay as metadata)."]


def add_derived(frame: pd.DataFrame, guesses, wanted) -> pd.DataFrame:
    """``frame`` with the derived objectives in ``wanted`` added (the input is not modified)."""
    out = frame
    for g in guesses:
        if g.source is None or g.name not in wanted or g.name in frame.columns \
                or g.source not in frame.columns:
            continue
        values = pd.to_numeric(frame[g.source], errors="coerce").to_numpy(dtype=np.float64)
        values = np.abs(1.0 - values) if g.transform == "abs_one_minus" else np.abs(values)
        if out is frame:
            out = frame.copy(deep=False)
        out[g.name] = values
    return out


# --------------------------------------------------------------------------- uncertainty
def pair_uncertainties(columns: list[str], guesses) -> dict:
    """``{metric: (kind, spread column)}`` for the spread columns among ``guesses``."""
    candidates = [g.name for g in guesses if g.role == "objective" and g.source is None]
    out = {}
    for g in guesses:
        if g.role != "metadata" or g.name not in columns:
            continue
        kind = uncertainty_kind(g.name)
        if kind is None:
            continue
        metric = uncertainty_of(g.name, columns, candidates)
        if metric is not None and metric not in out:
            out[metric] = (kind, g.name)
    return out


# --------------------------------------------------------------------------- wide tables
def family_of(column: str) -> str | None:
    """The prefix a column shares with its family: ``race-FPR`` -> ``race``, else None."""
    text = re.sub(r"^\|(?:1 - )?|\|$", "", str(column))  # a derived |1 - x| is x's family
    match = re.match(r"^\s*([^-_.:/ ]+)\s*[-_.:/ ]\s*\S", text)
    return match.group(1).lower() if match else None


def _short_set_rule(families: dict) -> str:
    """How the short set was chosen, in words: by family, or (none) in the file's order
    (MTEB's per-task export read "the first column of each family: )" with no family)."""
    if not families:
        return "those with a guessed direction first, then in the file's order"
    return ("the first column of each family: " + ", ".join(f"{f}-*" for f in list(families)[:6])
            + (" ..." if len(families) > 6 else "") + ", those with a guessed direction first")


def shorten_wide(guesses: list, notes: list, means: dict | None = None) -> tuple[list, dict]:
    """Past :data:`SHORT_SET` objectives, keep the first of each family (then the first
    :data:`SHORT_SET`) and flag the rest ``more``; return the guesses and the families.

    ``means`` (:func:`~copa_dash.data.aggregate_columns.exact_means`: objective -> the
    columns it is the row mean of) puts each such mean in its parts' family, and first:
    the Arena merge's ``model_average_score`` stands for the six ``evaluations_*`` benchmarks
    it averages instead of sitting beside ``evaluations_ifeval_value``, counting IFEval twice.
    """
    objectives = [g for g in guesses if g.role == "objective"]
    leads = {family_of(parts[0]): name for name, parts in (means or {}).items()
             if any(g.name == name for g in objectives) and family_of(parts[0]) is not None}
    groups: dict[str, list[str]] = {}
    for g in objectives:
        family = family_of(g.name)
        if family is not None:
            groups.setdefault(family, []).append(g.name)
    families = {f: tuple(v) for f, v in groups.items() if len(v) > 1}
    if len(objectives) <= SHORT_SET:
        return guesses, families
    keep, seen = [], set()
    # those with a guessed direction first: BBOB's ERT table offered twelve undirected
    # quantiles of one runtime and left its ERT, the measure of that field, out
    for g in sorted(objectives, key=lambda o: o.direction is None):
        family = next((f for f, lead in leads.items() if lead == g.name), family_of(g.name))
        key = family if family in families or family in leads else g.name
        if key in seen:
            continue
        seen.add(key)
        first = next((o for o in objectives if o.name in families.get(family, ())
                      and o.direction is not None), g) if family in families else g
        keep.append(leads.get(family, first.name))
    keep = keep[:SHORT_SET]
    for g in objectives:     # one family only: still two objectives, a front needs a trade-off
        if len(keep) >= 2:
            break
        if g.name not in keep:
            keep.append(g.name)
    out = [g if g.role != "objective" or g.name in keep else
           replace(g, role="metadata", more=True,
                   reason=f"more columns: a wide table; {g.reason}") for g in guesses]
    notes.append(f"{len(objectives)} columns could be objectives; a short set of {len(keep)} "
                 f"is proposed ({_short_set_rule(families)}), the other "
                 f"{len(objectives) - len(keep)} are under 'more columns' as metadata.")
    for family, lead in leads.items():
        parts = means[lead]
        notes.append(f"{lead!r} is, row by row, the mean of {len(parts)} columns ("
                     + ", ".join(map(repr, parts[:3])) + (" ..." if len(parts) > 3 else "")
                     + f"): it stands for the {family}-* columns in the short set, since "
                     "weighing it beside them would count them twice.")
    return out, families


def infinite_objectives(frame: pd.DataFrame, guesses: list, notes: list) -> list:
    """``guesses`` with each proposed objective that holds infinite values left as metadata,
    saying where and how to use it (appended to ``notes``).

    An objective must be finite to be saved (:func:`~copa_dash.data.io.build_eval_table`);
    proposing one that is not made the default Save fail. BBOB's ``ERT`` is ``Inf`` where
    no run reached the target (8 of 168 rows of an IOHanalyzer export).
    """
    out, said = [], []
    for g in guesses:
        values = (pd.to_numeric(frame[g.name], errors="coerce").to_numpy(dtype=np.float64)
                  if g.role == "objective" and g.source is None and g.name in frame.columns
                  else np.zeros(0))
        where = np.flatnonzero(np.isinf(values))
        if not where.size:
            out.append(g)
            continue
        said.append(f"{g.name!r} ({row_list(where, limit=3)})")
        out.append(replace(g, role="metadata", confidence="likely", reason=(
            f"infinite in {where.size} row{'s' * (where.size > 1)} (a target never reached?): "
            "an objective needs finite numbers; leave those cells empty in the file to "
            "compare on it, those rows then left out of views with it")))
    if said:
        notes.append("Infinite values (Inf) in " + "; ".join(said[:4])
                     + (" ..." if len(said) > 4 else "") + ": a measure of a target never "
                     "reached, say. An objective needs finite numbers, so "
                     + ("it stays" if len(said) == 1 else "these stay") + " as metadata; to "
                     "compare on " + ("it" if len(said) == 1 else "one") + ", leave those "
                     "cells empty in the file (the rows are then left out of views with it) "
                     "or write the number they stand for.")
    return out


__all__ = [
    "SHORT_SET",
    "add_derived",
    "derived_notes",
    "fairness_target",
    "family_of",
    "infinite_objectives",
    "mixed_units",
    "pair_uncertainties",
    "shorten_wide",
    "target_guesses",
    "uncertainty_kind",
    "units_from_siblings",
]
