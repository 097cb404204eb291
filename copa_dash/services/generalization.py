"""Validation -> test generalisation of every search in a table, per system and budget.

A table holds the validation and test values of the same configurations, either as
paired columns ``val_<metric>`` / ``test_<metric>`` or in a long layout with a split
column (one row per configuration and split, the same id on both rows). Rows are grouped
into searches by their (system, budget, seed) values; each search gets the core's
validation front, optimistic and pessimistic test fronts and gap
(:func:`copa_dash.core.generalization.validation_test_fronts`), all with one reference
point so that every hypervolume of the table is comparable. Per (system, budget) the
numbers are averaged over seeds (the paper's Table 1), and at every (budget, seed) each
pair of systems is compared by the three criteria of the paper's Section 4.
See METHODS.md, "Validation -> test generalisation".
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.dominance import nondominated_mask
from ..core.errors import InvalidInputError
from ..core.generalization import GeneralizationResult, compare_methods, validation_test_fronts
from ..core.validate import parse_directions
from .val_test_pairs import (  # noqa: F401  (re-exported: the CLI and the UI import them here)
    TEST_PREFIX,
    VAL_PREFIX,
    GapSpec,
    PairedRuns,
    label,
    label_order,
    label_text,
    pair_runs,
    paired_metric_names,
    reference_point,
    spec_from_roles,
)

MAX_PAIRWISE_SYSTEMS = 8


@dataclass(frozen=True)
class SearchResult:
    """One search (rows sharing system, budget and seed) and its fronts on test."""

    system: object
    budget: object
    seed: object
    rows: np.ndarray               # indices into PairedRuns
    fronts: GeneralizationResult
    test_front: np.ndarray         # (n,) bool: non-dominated on test among all its rows

    @property
    def key(self) -> tuple:
        return (self.system, self.budget, self.seed)


@dataclass(frozen=True)
class SystemSummary:
    """One (system, budget): means over its seeds, and their sample standard deviations."""

    system: object
    budget: object
    n_seeds: int
    n_rows: int
    hv_val: float
    hv_opt: float
    hv_pess: float
    gap: float
    sd: dict  # {"hv_val": ..., "hv_opt": ..., "hv_pess": ..., "gap": ...}; 0 for one seed


@dataclass(frozen=True)
class SystemComparison:
    """The three verdicts between two systems on the searches of one (budget, seed)."""

    budget: object
    seed: object
    system_a: object
    system_b: object
    verdicts: object  # core.generalization.MethodComparison


@dataclass(frozen=True)
class GapReport:
    """Every search of a table, the per-(system, budget) summary and the comparisons."""

    spec: GapSpec
    runs: PairedRuns
    ref: np.ndarray
    searches: tuple[SearchResult, ...]
    summaries: tuple[SystemSummary, ...]
    comparisons: tuple[SystemComparison, ...]
    notes: tuple[str, ...] = ()

    @property
    def systems(self) -> list:
        return sorted({s.system for s in self.searches}, key=label_order)

    @property
    def budgets(self) -> list:
        return sorted({s.budget for s in self.searches}, key=label_order)

    @property
    def seeds(self) -> list:
        return sorted({s.seed for s in self.searches}, key=label_order)

    def search(self, system, budget, seed) -> SearchResult:
        """The search with these labels (compared as text, so URL values match).

        Raises
        ------
        InvalidInputError
            If no search has them.
        """
        wanted = tuple(label_text(v) for v in (system, budget, seed))
        for found in self.searches:
            if tuple(label_text(v) for v in found.key) == wanted:
                return found
        raise InvalidInputError(
            f"no search has system {wanted[0]!r}, budget {wanted[1]!r} and seed {wanted[2]!r}")


def _searches(runs: PairedRuns, spec: GapSpec, ref: np.ndarray) -> tuple[SearchResult, ...]:
    keys = list(zip(runs.system.tolist(), runs.budget.tolist(), runs.seed.tolist()))
    members: dict[tuple, list[int]] = {}
    for row, key in enumerate(keys):
        members.setdefault(key, []).append(row)
    out = []
    for key in sorted(members, key=lambda k: tuple(label_order(v) for v in k)):
        rows = np.asarray(members[key], dtype=np.int64)
        val, test = runs.val[rows], runs.test[rows]
        fronts = validation_test_fronts(val, test, list(spec.directions), ref=ref)
        out.append(SearchResult(*key, rows=rows, fronts=fronts,
                                test_front=nondominated_mask(test, list(spec.directions))))
    return tuple(out)


def _summaries(searches) -> tuple[SystemSummary, ...]:
    by_pair: dict[tuple, list[SearchResult]] = {}
    for found in searches:
        by_pair.setdefault((found.system, found.budget), []).append(found)
    out = []
    for (system, budget), group in by_pair.items():
        values = {name: np.array([getattr(s.fronts, name) for s in group])
                  for name in ("hv_val", "hv_opt", "hv_pess", "gap")}
        sd = {name: float(v.std(ddof=1)) if v.size > 1 else 0.0 for name, v in values.items()}
        out.append(SystemSummary(system=system, budget=budget, n_seeds=len(group),
                                 n_rows=int(sum(s.rows.size for s in group)), sd=sd,
                                 **{name: float(v.mean()) for name, v in values.items()}))
    return tuple(out)


def compare_searches(a: SearchResult, b: SearchResult, /) -> SystemComparison:
    """The paper's three verdicts between two searches of the same report (same r)."""
    verdicts = compare_methods(a.fronts, b.fronts, names=(label_text(a.system) or "A",
                                                         label_text(b.system) or "B"))
    return SystemComparison(budget=a.budget, seed=a.seed, system_a=a.system,
                            system_b=b.system, verdicts=verdicts)


def _comparisons(searches) -> tuple[tuple[SystemComparison, ...], tuple[str, ...]]:
    systems = sorted({s.system for s in searches}, key=label_order)
    if len(systems) < 2:
        return (), ()
    if len(systems) > MAX_PAIRWISE_SYSTEMS:
        note = (f"{len(systems)} systems: comparisons of every pair are left out (more than "
                f"{MAX_PAIRWISE_SYSTEMS}); choose two systems to compare")
        return (), (note,)
    by_setting: dict[tuple, dict] = {}
    for found in searches:
        by_setting.setdefault((found.budget, found.seed), {})[found.system] = found
    out = []
    for setting in sorted(by_setting, key=lambda k: tuple(label_order(v) for v in k)):
        present = by_setting[setting]
        for a, b in itertools.combinations([s for s in systems if s in present], 2):
            out.append(compare_searches(present[a], present[b]))
    return tuple(out), ()


def build_report(frame: pd.DataFrame, spec: GapSpec, /) -> GapReport:
    """Pair the table, then fronts and gap of every search, the summary and the verdicts.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (paired ``val_``/``test_`` columns, or the long layout of ``spec.split``).
    spec : GapSpec

    Returns
    -------
    GapReport
        ``searches`` sorted by (system, budget, seed); ``summaries`` one per
        (system, budget) with means over seeds; ``comparisons`` for every pair of systems
        at every (budget, seed) when there are at most ``MAX_PAIRWISE_SYSTEMS`` systems.

    Raises
    ------
    InvalidInputError
        See :func:`pair_runs`; a bad reference point.

    Notes
    -----
    One reference point serves every search, so hypervolumes compare across systems and
    budgets. A search is the set of rows with equal (system, budget, seed); its fronts are
    :func:`copa_dash.core.generalization.validation_test_fronts` (paper Eqs. 1-2), and
    ``test_front`` is the front of all its rows on test values (the "not knowable in
    practice" front of the paper's Fig. 3). Cost: per search of n rows, three fronts and
    three exact hypervolumes; comparisons O(|pess| |opt| K) per pair.

    Examples
    --------
    >>> frame = pd.DataFrame({"id": ["a", "b", "c"], "val_x": [0.1, 0.5, 0.9],
    ...     "val_y": [0.9, 0.5, 0.1], "test_x": [0.2, 0.6, 0.9], "test_y": [0.8, 0.9, 0.2]})
    >>> report = build_report(frame, GapSpec("id", ("x", "y"), ("min", "min"), ref=(1, 1)))
    >>> found = report.searches[0]
    >>> found.fronts.optimistic_mask.tolist(), found.fronts.pessimistic_mask.tolist()
    ([True, False, True], [False, True, True])
    >>> round(found.fronts.gap, 4)
    0.11
    """
    parse_directions(list(spec.directions), len(spec.metrics))
    runs = pair_runs(frame, spec)
    ref = reference_point(runs, spec)
    searches = _searches(runs, spec, ref)
    comparisons, notes = _comparisons(searches)
    if runs.n_dropped:
        plural = "s" if runs.n_dropped != 1 else ""
        note = (f"{runs.n_dropped} configuration{plural} left out: a validation or test value "
                "(or row) is missing")
        notes = (note, *notes)
    return GapReport(spec=spec, runs=runs, ref=ref, searches=searches,
                     summaries=_summaries(searches), comparisons=comparisons, notes=notes)


def generalization_report(frame: pd.DataFrame, spec: GapSpec, /, *, dataset_id: str = "",
                          cache=None) -> GapReport:
    """:func:`build_report`, memoised per dataset in the analysis cache when one is given."""
    if cache is None or not dataset_id:
        return build_report(frame, spec)
    return cache.memoize("generalization_report", dataset_id, spec.cache_arguments(),
                         lambda: build_report(frame, spec))


def dataset_report(opened, /, *, metrics=None, ref=None, cache=None) -> GapReport:
    """The report of an opened dataset (bundled or uploaded), with its roles' defaults.

    ``metrics`` is a sequence of (name, direction) or None for the manifest's
    ``paired_metrics`` (or the table's val_/test_ pairs, or its objectives in a long layout).
    """
    table = opened.table
    spec = spec_from_roles(table.roles, list(table.frame.columns),
                           paired_metrics=opened.paired_metrics, metrics=metrics, ref=ref)
    return generalization_report(table.frame, spec, dataset_id=opened.cache_id, cache=cache)


def summary_rows(report: GapReport) -> list[dict]:
    """The per-(system, budget) table as JSON-ready dicts (means over seeds)."""
    return [{"system": s.system, "budget": s.budget, "n_seeds": s.n_seeds, "n_rows": s.n_rows,
             "hv_val": s.hv_val, "hv_opt": s.hv_opt, "hv_pess": s.hv_pess, "gap": s.gap,
             "sd": dict(s.sd)} for s in report.summaries]


def comparison_rows(comparisons) -> list[dict]:
    """Comparisons as JSON-ready dicts; a verdict's winner is a system label, "both" or None."""
    rows = []
    for c in comparisons:
        names = {"A": c.system_a, "B": c.system_b, "both": "both", None: None}
        rows.append({"budget": c.budget, "seed": c.seed, "a": c.system_a, "b": c.system_b,
                     "verdicts": [{"criterion": v.criterion, "winner": names[v.winner],
                                   "sentence": v.sentence} for v in c.verdicts.verdicts]})
    return rows


def search_rows(report: GapReport) -> list[dict]:
    """One dict per search: its labels, front sizes, hypervolumes and gap."""
    return [{"system": s.system, "budget": s.budget, "seed": s.seed, "n_rows": int(s.rows.size),
             "n_validation_front": int(s.fronts.validation_mask.sum()),
             "n_optimistic": int(s.fronts.optimistic_mask.sum()),
             "n_pessimistic": int(s.fronts.pessimistic_mask.sum()),
             "hv_val": s.fronts.hv_val, "hv_opt": s.fronts.hv_opt,
             "hv_pess": s.fronts.hv_pess, "gap": s.fronts.gap} for s in report.searches]


def pair_comparisons(report: GapReport, a, b, /) -> tuple[SystemComparison, ...]:
    """The verdicts between systems ``a`` and ``b`` (labels as text) at every (budget, seed)
    where both have a search.

    Raises
    ------
    InvalidInputError
        If either system is not in the report.
    """
    known = {label_text(s): s for s in report.systems}
    for name in (a, b):
        if label_text(name) not in known:
            raise InvalidInputError(f"no system {label_text(name)!r}; the systems are "
                                    f"{', '.join(map(repr, known))}")
    by_setting: dict[tuple, dict] = {}
    for found in report.searches:
        by_setting.setdefault((found.budget, found.seed), {})[label_text(found.system)] = found
    return tuple(compare_searches(present[label_text(a)], present[label_text(b)])
                 for _, present in sorted(by_setting.items(),
                                          key=lambda kv: tuple(label_order(v) for v in kv[0]))
                 if label_text(a) in present and label_text(b) in present)


def metric_choices(opened, /) -> list[tuple[str, str]]:
    """Every metric of an opened dataset the view can pair, with its default direction:
    the objectives of a long layout, else the ``val_``/``test_`` pairs (manifest first)
    whose direction the roles give (pairs that are no objective have none and are left out)."""
    table = opened.table
    known = {o.name: o.direction for o in table.roles.objectives}
    if table.roles.split:
        return list(known.items())
    names = list(dict.fromkeys([*opened.paired_metrics,
                                *paired_metric_names(list(table.frame.columns))]))
    out = []
    for name in names:
        direction = known.get(VAL_PREFIX + name) or known.get(TEST_PREFIX + name) or known.get(name)
        if direction:
            out.append((name, direction))
    return out
