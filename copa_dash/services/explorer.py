"""Everything the COPA explorer shows for one view, as plain data (no dash, no plotly).

:func:`explore` takes a dataset, the preferences and the constraints and returns an
:class:`Exploration`: the scored rows, their u, the front, the alpha sweep, the pick with
its uncertainty and alpha range, the runners-up and (on demand) where the baseline
normalisations pick. Slider-independent parts are memoised per dataset in the cache.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..core import criteria
from ..core import sweep as sweep_core
from ..core.baselines import normalised_objectives
from ..core.errors import InvalidInputError
from ..core.ranks import cdf_transform, dkw_epsilon, u_interval, u_standard_error
from ..core.validate import orient, parse_directions
from ..data.filters import RowFilter
from ..data.statistic_columns import quantiles_it_summarises
from . import method_limits, selection
from .catalog import OpenedDataset
from .default_view import (
    derived_aggregate,
    derived_note,
    kept_first_view,
    mostly_missing,
    mostly_missing_note,
)
from .objectives import TWO_OBJECTIVES, missing_counts, rows_left_out_note
from .ranked import RankedRows
from .recent import PerTable, RecentValues
from .task_span import TaskSpan, task_span

BASELINES = ("sum", "saw", "ahp", "delta", "norm")
BASELINE_LABELS = {"sum": "Sum", "saw": "SAW", "ahp": "AHP", "delta": "Delta", "norm": "norm",
                   "copa": "COPA"}
COMPARE_GRID = 201
AHP_MAX_ROWS = 3000
FRONT_SWEEP_MAX_P = 16.0   # see front_sweep


@dataclass(frozen=True)
class BaselinePick:
    """Where one normalisation picks, and how many rows it reaches over alpha."""

    method: str
    position: int | None
    distinct_over_alpha: int | None
    message: str = ""


@dataclass(frozen=True)
class Exploration:
    """The explorer's content for one view."""

    problem: selection.SelectionProblem
    scores: np.ndarray
    front: np.ndarray
    pick: int
    ranking: RankedRows        # reads as an array of positions, best first
    sweep: object | None
    pick_alpha_range: tuple[float, float] | None
    u_standard_error: np.ndarray
    dkw: float
    baselines: tuple[BaselinePick, ...] = ()
    notes: tuple[str, ...] = ()
    units: tuple[tuple[str, str], ...] = ()  # (objective, unit) where the table knows one
    # the pick's 95% Wilson interval of u per objective (low, high), inside [0, 1]
    u_interval: tuple[np.ndarray, np.ndarray] | None = None
    #: the tasks the eligible rows come from, when more than one (the page says so)
    task_span: TaskSpan | None = None

    def unit_of(self, name: str) -> str | None:
        """The unit of objective ``name`` (``Params`` -> M), shown on its axis."""
        return dict(self.units).get(name)

    @property
    def runners_up(self) -> np.ndarray:
        return self.ranking[1:6]


def _may_be_first_view(preferences) -> bool:
    """Whether ``preferences`` have the settings of an upload's first view (one focus, alpha
    0.5, p = inf): only then is the first view worked out to compare (0.7 s CPU once for a
    table of 1,000,000 rows x 4, when a link opened the table on another view)."""
    return (preferences.weights is None and len(preferences.focus or ()) == 1
            and preferences.alpha == 0.5 and math.isinf(preferences.p))


def explore(opened: OpenedDataset, preferences: selection.Preferences, row_filter: RowFilter,
            *, compare: bool = False, cache=None) -> Exploration:
    """Compute the explorer's content.

    Raises
    ------
    InvalidInputError
        With a message saying what to change: fewer than two objectives, no row passing the
        constraints, every row missing an objective.
    """
    if len(preferences.objectives) < 2:
        raise InvalidInputError(TWO_OBJECTIVES)
    problem = selection.build_problem(opened.table, preferences, row_filter,
                                      dataset_id=opened.cache_id, cache=cache)
    if not problem.eligible.any():
        raise InvalidInputError(
            "no row passes the constraints: widen a range or allow more values in a filter")
    notes = []
    if problem.n_missing:
        # only the rows the constraints let through: a row the constraints exclude anyway is
        # no candidate, and naming it (amlb-2022's one-task view named two rows of other
        # tasks) sends the user to drop an objective for nothing
        shown = (row_filter or RowFilter()).mask(opened.table.frame)
        missing = missing_counts(opened.table, list(preferences.objectives), rows=shown)
        n_missing = int((shown & np.isnan(
            opened.table.matrix(list(preferences.objectives))).any(axis=1)).sum())
        if n_missing:
            notes.append(rows_left_out_note(
                n_missing, hint="drop that objective to include them", missing=missing))
    if opened.default_view is None:   # an upload: say which objectives its first view left out
        unticked = tuple(n for n in opened.table.objective_names
                         if n not in preferences.objectives)
        notes.extend(_left_out_notes(opened.table, unticked))
        if _may_be_first_view(preferences):
            first = kept_first_view(opened.table)
            if tuple(preferences.objectives) == first.objectives and \
                    tuple(preferences.focus) == first.focus:
                notes.append(first.opening_note())    # the view it opened on: why this pair
    scores = selection.scores(problem)
    # the first places now, the rest when a page asks (see services/ranked.py)
    ranking = RankedRows(problem, scores)
    pick = int(ranking[0])
    front = selection.front_mask(problem, cache=cache)
    sweep = None
    alpha_range = None
    if preferences.weights is None and preferences.focus and \
            len(preferences.focus) < len(preferences.objectives):
        sweep = front_sweep(problem, front, cache=cache)
        where = np.flatnonzero(np.asarray(sweep.rows) == pick)
        if where.size:
            alpha_range = (float(sweep.alpha_min[where[0]]), float(sweep.alpha_max[where[0]]))
    se = u_standard_error(problem.u[pick], problem.n_population)
    baselines = _baselines(problem, cache) if compare else ()
    units = tuple((o.name, o.unit) for o in opened.table.roles.objectives if o.unit)
    return Exploration(problem=problem, scores=scores, front=front, pick=pick, ranking=ranking,
                       units=units,
                       sweep=sweep, pick_alpha_range=alpha_range, u_standard_error=se,
                       dkw=float(dkw_epsilon(problem.n_population)), baselines=baselines,
                       notes=tuple(notes),
                       u_interval=u_interval(problem.u[pick], problem.n_population),
                       task_span=task_span(opened.table, problem.eligible_rows))


#: one unticked set per view a user tried, 32 a table
_LEFT_OUT_NOTES = PerTable(keys_per_table=32)


def _left_out_notes(table, unticked: tuple[str, ...]) -> tuple[str, ...]:
    """The notes on an upload's objectives its view leaves out: those missing in most rows,
    and an average of the others while it is unticked (as the first view leaves it out).

    Worked out once per table object and set of unticked objectives: they depend on nothing
    else, and on a 1,000,000-row upload the average's check (every row against its parts)
    took ~140 ms and the missing counts ~30 ms, on every slider move and tick.
    """
    return _LEFT_OUT_NOTES.get(table, unticked, lambda: _work_out_left_out(table, unticked))


def _work_out_left_out(table, unticked: tuple[str, ...]) -> tuple[str, ...]:
    notes = []
    missing = mostly_missing(table, unticked)
    note = mostly_missing_note(missing, len(table.frame))
    if note:
        notes.append(note)
    gone = {n for n, _ in missing}
    derived = derived_aggregate(table, [o for o in table.roles.objectives if o.name not in gone])
    if derived in unticked:
        notes.append(derived_note(derived, quantiles=quantiles_it_summarises(
            derived, table.objective_names)))
    return tuple(notes)


def front_sweep(problem: selection.SelectionProblem, front: np.ndarray, *, cache=None):
    """The alpha sweep of ``problem`` scanned over its front rows only: the same result as
    :func:`selection.sweep` over every eligible row, at a fraction of the cost on a big table
    (a p move on 1,000,000 rows x 4 took about 1.5 s of CPU time in the sweep's sort of
    every row).

    Why it is the same: a row off the front is dominated in the raw values by an eligible
    row, which is in the CDF population, so that row's u is no larger in any objective and
    smaller by at least 1/N in one; its group power sums are then no larger and its sum of u
    smaller by more than the tie tolerance, which is how the sweep kernel's own pruning
    defines a row that "beats" another (``core/_kernels/sweep.py``, ``_unbeaten``). Beaten
    rows never enter the kernel's scan, and beating is transitive, so leaving them out
    beforehand leaves the same unbeaten rows and the same selection at every alpha.
    The kernel computes these sums directly (its fast path) or, when a term could underflow,
    as logarithms, and which it takes depends on the smallest positive u of the rows it is
    given. For p up to 16 (and p = inf, whose tie-break uses p = 8) it is the direct path
    for any such rows: u >= 1/N, every grid weight >= 1/(9,999 K), and
    16 ln(1 / (9,999 K N)) stays above the kernel's -600 while K N < 1.9e12 (15 TB of u).
    Above p = 16 the sweep runs over every eligible row, as before.

    ``tests/services/test_explorer_big.py`` compares both on tied and duplicated rows.
    """
    p = problem.preferences.p
    if math.isinf(p) or p <= FRONT_SWEEP_MAX_P:
        problem = replace(problem, eligible=problem.eligible & front)
    return selection.sweep(problem, cache=cache)


def _baselines(problem: selection.SelectionProblem, cache) -> tuple[BaselinePick, ...]:
    prefs = problem.preferences
    grid = np.linspace(0.0, 1.0, COMPARE_GRID)
    sweepable = prefs.weights is None and prefs.focus and len(prefs.focus) < len(prefs.objectives)
    out = []
    for method in ("copa",) + BASELINES:
        if method == "ahp" and problem.raw.shape[0] > AHP_MAX_ROWS:
            out.append(BaselinePick(method, None, None, method_limits.too_many_rows(
                method, AHP_MAX_ROWS, problem.raw.shape[0])))
            continue
        method_prefs = replace(prefs, method=method)
        try:
            position = selection.select(problem, preferences=method_prefs)
            distinct = None
            if sweepable:
                distinct = _distinct_over_grid(problem, method_prefs, grid, cache)
            out.append(BaselinePick(method, position, distinct))
        except InvalidInputError as exc:   # the core refused: say why with names, not indices
            out.append(BaselinePick(method, None, None, method_limits.why_not(
                exc, method, prefs.objectives, problem.ids)))
    return tuple(out)


def _distinct_over_grid(problem, prefs, grid, cache) -> int:
    """How many distinct rows a method picks as alpha runs over ``grid``.

    Every baseline scores a row as ``phi @ w`` with ``phi`` its per-column normalisation,
    which does not depend on the weights: normalise once, score the whole grid in one
    product (argmin ties go to table order, as in ``selection.select``).
    """
    def compute():
        focus = [prefs.objectives.index(f) for f in prefs.focus]
        k = len(prefs.objectives)
        if prefs.method == "copa":
            result = sweep_core.alpha_sweep(problem.u, focus, p=prefs.p, n_alphas=len(grid),
                                            eligible=problem.eligible)
            return int(np.unique(result.selected).size)
        weights = np.stack([criteria.weights_from_alpha(k, focus, float(a)) for a in grid])
        phi = _normalised(problem, prefs.method)
        scores = phi @ weights.T
        scores[~problem.eligible] = np.inf
        scores[np.isnan(scores)] = np.inf
        return int(np.unique(np.argmin(scores, axis=0)).size)

    key = dict(problem.cache_key, method=prefs.method, focus=list(prefs.focus), p=str(prefs.p),
               grid=len(grid), eligible=selection._mask_digest(problem.eligible))
    return selection.memoized(cache, "distinct_over_alpha", problem.dataset_id, key, compute)


def _normalised(problem, method: str) -> np.ndarray:
    directions = list(problem.preferences.directions)
    if method == "sum":
        return orient(problem.raw, parse_directions(directions, problem.raw.shape[1]))
    return normalised_objectives(problem.raw, directions,
                                 method="maxnorm" if method == "saw" else method)


# The summary view's coordinates depend only on u (kept with the problem, shared by the
# requests of one dataset and filter), the focus and p: a move of alpha or of the weights
# redraws the summary from here instead of recomputing a p-norm and a CDF over every row.
# The kept u is compared by identity (the value holds it), so a new problem never reads
# another's coordinates.
_recent_summaries = RecentValues(entries=4, share=0.05, name="summary coordinates")


def summary_coordinates(problem: selection.SelectionProblem) -> tuple[np.ndarray, np.ndarray]:
    """The paper's Fig. 4 view: x = u of the focus, y = CDF of the p-norm of the others' u.

    With several focus objectives x is the CDF of their p-norm as well.
    """
    prefs = problem.preferences
    key = (id(problem.u), tuple(prefs.objectives), tuple(prefs.focus), float(prefs.p))
    kept = _recent_summaries.get(key)
    if kept is not None and kept[0] is problem.u:
        return kept[1]
    x, y = _summary_coordinates(problem)
    x.flags.writeable = False          # shared between requests: nobody may change them
    y.flags.writeable = False
    _recent_summaries.put(key, (problem.u, (x, y)), nbytes=x.nbytes + y.nbytes)
    return x, y


def _summary_coordinates(problem: selection.SelectionProblem) -> tuple[np.ndarray, np.ndarray]:
    prefs = problem.preferences
    focus = list(prefs.focus) or [prefs.objectives[0]]
    index_f = [prefs.objectives.index(f) for f in focus]
    index_r = [k for k in range(len(prefs.objectives)) if k not in index_f]
    u = problem.u

    def norm_cdf(columns):
        part = np.ascontiguousarray(u[:, columns])
        equal = np.full(len(columns), 1.0 / len(columns))
        values = criteria.copa_scores(part, equal, p=prefs.p)

        return cdf_transform(values.reshape(-1, 1))[:, 0]

    x = u[:, index_f[0]] if len(index_f) == 1 else norm_cdf(index_f)
    y = norm_cdf(index_r) if index_r else np.zeros(u.shape[0])
    return x, y
