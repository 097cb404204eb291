"""Model selection on an evaluation table: the one path the CLI and the explorer share.

A :class:`Preferences` says which objectives count, in which direction, with which
weights (alpha and a focus set, or one weight per objective) and which p. Given a table
and the constraints, :func:`build_problem` computes the CDF (u) matrix over the chosen
population, and :func:`select`, :func:`rank` and :func:`sweep` answer on it. Results that
do not change with alpha or p are memoised per dataset when a cache is given; the last few
problems' rows, u and constraint masks are then also kept in this process's memory.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field

import numpy as np

from ..core import criteria, ranks
from ..core import sweep as sweep_core
from ..core.baselines import baseline_scores
from ..core.dominance import nondominated_mask
from ..core.errors import InvalidInputError, MethodNotApplicableError
from ..core.validate import check_weights
from ..data.filters import RowFilter
from ..data.schema import EvalTable
from .method_limits import why_not
from .recent import RecentValues

METHODS = ("copa", "sum", "saw", "ahp", "delta", "norm", "maxnorm", "pnorm")


@dataclass(frozen=True)
class Preferences:
    """What the user wants: objectives, directions, weights and p.

    ``weights`` (one per objective) overrides ``focus``/``alpha`` when given.
    """

    objectives: tuple[str, ...]
    directions: tuple[str, ...]
    focus: tuple[str, ...] = ()
    alpha: float = 0.5
    weights: tuple[float, ...] | None = None
    p: float = math.inf
    method: str = "copa"
    population: str = "all"

    def __post_init__(self):
        if len(self.objectives) != len(self.directions):
            raise InvalidInputError("every objective needs a direction (min or max)")
        if len(set(self.objectives)) != len(self.objectives):
            raise InvalidInputError("an objective is listed twice")
        unknown = [f for f in self.focus if f not in self.objectives]
        if unknown:
            raise InvalidInputError(
                f"focus objective(s) {', '.join(unknown)} are not among the chosen objectives")
        if self.method not in METHODS:
            raise InvalidInputError(
                f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        if self.population not in ("all", "filtered"):
            raise InvalidInputError("population must be 'all' or 'filtered'")
        if not 0.0 <= self.alpha <= 1.0:
            raise InvalidInputError(f"alpha must be in [0, 1], not {self.alpha}")

    def weight_vector(self) -> np.ndarray:
        """Normalised weights, one per objective (sum 1)."""
        k = len(self.objectives)
        if self.weights is not None:
            return check_weights(self.weights, k, name="weights")
        if not self.focus:
            return np.full(k, 1.0 / k)
        focus_index = [self.objectives.index(f) for f in self.focus]
        return criteria.weights_from_alpha(k, focus_index, self.alpha)


@dataclass(frozen=True)
class SelectionProblem:
    """The rows that can be scored, their raw values and u, and which rows pass the filters.

    Row positions are positions in ``rows`` (indices into the table's frame).
    """

    dataset_id: str
    preferences: Preferences
    rows: np.ndarray          # table row index of each scored row
    ids: np.ndarray           # id of each scored row
    raw: np.ndarray           # (n, K) raw values
    u: np.ndarray             # (n, K) CDF values over the population
    eligible: np.ndarray      # (n,) passes the constraints
    n_missing: int            # rows left out for a missing objective value
    n_population: int         # rows the CDF is computed over
    cache_key: dict = field(default_factory=dict)

    @property
    def eligible_rows(self) -> np.ndarray:
        """Table row index of each row that passes the constraints: the rows a pick, a ranking
        or a front is taken from (what a task note speaks of)."""
        return self.rows[self.eligible]


def memoized(cache, name: str, dataset_id: str, arguments: dict, compute):
    """``compute()``, kept in the analysis ``cache`` under (name, dataset, arguments) when one
    is given; ``cache=None`` computes every time (the CLI, tests)."""
    if cache is None:
        return compute()
    return cache.memoize(name, dataset_id, arguments, compute)


def build_problem(table: EvalTable, preferences: Preferences, row_filter: RowFilter | None = None,
                  *, dataset_id: str = "", cache=None) -> SelectionProblem:
    """Prepare the scored rows for ``preferences`` under ``row_filter``.

    Raises
    ------
    InvalidInputError
        If an objective is not a numeric column, or no row has every objective.
    """
    if not preferences.objectives:
        raise InvalidInputError("choose at least one objective")
    row_filter = row_filter or RowFilter()
    missing_cols = [c for c in preferences.objectives if c not in table.frame.columns]
    if missing_cols:
        raise InvalidInputError(f"the table has no column(s) {', '.join(missing_cols)}")
    key = {
        "objectives": list(preferences.objectives),
        "directions": list(preferences.directions),
        "population": row_filter.key() if preferences.population == "filtered" else "all",
    }
    base, eligible = _kept_or_built(table, preferences, row_filter, key, dataset_id, cache)
    return SelectionProblem(dataset_id=dataset_id, preferences=preferences, eligible=eligible,
                            **base, cache_key=key)


def _kept_or_built(table, preferences, row_filter, key, dataset_id, cache):
    """The problem's weight-independent fields and its constraint mask: from this process's
    memory when a dataset id and a cache are given and an earlier call kept them, else built
    (and then kept)."""
    filtered = preferences.population == "filtered"
    keep = bool(dataset_id) and cache is not None
    base_key = (dataset_id, json.dumps(key, sort_keys=True))
    base = _recent_bases.get(base_key) if keep else None
    eligible = None
    if base is None:
        base = _problem_base(table, preferences, row_filter, filtered, key, dataset_id, cache)
        eligible = base.pop("eligible")
        if keep:
            _freeze(*base.values())
            _recent_bases.put(base_key, base, nbytes=_nbytes(base))
    mask_key = (dataset_id, tuple(preferences.objectives), row_filter.key())
    if eligible is None and keep:
        eligible = _recent_masks.get(mask_key)
        if eligible is not None:
            return base, eligible
    if eligible is None:
        eligible = row_filter.mask(table.frame)[base["rows"]]
    if keep:
        _freeze(eligible)
        _recent_masks.put(mask_key, eligible, nbytes=eligible.nbytes)
    return base, eligible


def _problem_base(table: EvalTable, preferences: Preferences, row_filter: RowFilter,
                  filtered: bool, key: dict, dataset_id: str, cache) -> dict:
    """The fields of a :class:`SelectionProblem` that do not depend on the weights or p, and
    the constraint mask (``eligible``)."""
    raw_all = table.matrix(list(preferences.objectives))
    complete = ~np.isnan(raw_all).any(axis=1)
    rows = np.flatnonzero(complete)
    if rows.size == 0:
        raise InvalidInputError(
            "no row has a value for every chosen objective: drop an objective with missing values")
    raw = np.ascontiguousarray(raw_all[rows])
    passes = row_filter.mask(table.frame)[rows]

    def compute_u():
        population = passes if filtered else None
        if filtered and not passes.any():
            return np.full(raw.shape, np.nan)
        return ranks.cdf_transform(raw, list(preferences.directions), population=population)

    u = memoized(cache, "cdf_transform", dataset_id, key, compute_u)
    return {"rows": rows, "ids": table.ids[rows], "raw": raw, "u": u, "eligible": passes,
            "n_missing": int((~complete).sum()),
            "n_population": int(passes.sum()) if filtered else int(rows.size)}


def _freeze(*values) -> None:
    """Make the arrays among ``values`` read-only: kept in memory, they are shared by the
    problems of many slider moves."""
    for value in values:
        if isinstance(value, np.ndarray):
            value.flags.writeable = False


def _nbytes(parts: dict) -> int:
    return sum(value.nbytes for value in parts.values() if isinstance(value, np.ndarray))


# A slider move changes only the weights or p. Rebuilding the rest (column copies, the
# constraint mask, the ids as text, the u lookup) took about 2.5 ms of each move on the LLM
# leaderboard, so the last few are kept in memory - only for callers that give a dataset id
# naming the table's content (the catalog's ids do) and an analysis cache. The constraint mask
# is kept apart, keyed by the filter: moving a range slider adds a small mask, not a copy of
# the rows' values and u.
_recent_bases = RecentValues(entries=8, share=0.2, name="problems")
_recent_masks = RecentValues(entries=32, share=0.05, name="constraint masks")


def scores(problem: SelectionProblem, *, preferences: Preferences | None = None) -> np.ndarray:
    """Criterion value of every scored row (smaller is better).

    Raises
    ------
    InvalidInputError
        When the method cannot run on these values (SAW, AHP or max-normalisation over a
        value of 0 or below, Delta over an ideal of 0): the core's reason in
        :func:`.method_limits.why_not`'s words, with the objective and the row named.
    """
    prefs = preferences or problem.preferences
    weights = prefs.weight_vector()
    if prefs.method == "copa":
        return criteria.copa_scores(problem.u, weights, p=prefs.p)
    p = {"p": prefs.p} if prefs.method == "pnorm" else {}
    try:
        return baseline_scores(problem.raw, list(prefs.directions), weights,
                               method=prefs.method, **p)
    except MethodNotApplicableError as refused:
        raise InvalidInputError(why_not(refused, prefs.method, prefs.objectives,
                                        problem.ids)) from None


def _require_eligible(problem: SelectionProblem) -> None:
    if not problem.eligible.any():
        raise InvalidInputError(
            "no row passes the constraints: widen a range or allow more values")


def select(problem: SelectionProblem, *, preferences: Preferences | None = None) -> int:
    """Position (in ``problem``) of the selected row."""
    _require_eligible(problem)
    prefs = preferences or problem.preferences
    if prefs.method == "copa":
        return int(criteria.copa_select(problem.u, prefs.weight_vector(), p=prefs.p,
                                        eligible=problem.eligible))
    return int(_ranking_by_scores(scores(problem, preferences=prefs), problem.eligible)[0])


def ranking(problem: SelectionProblem, *, preferences: Preferences | None = None) -> np.ndarray:
    """Positions of the eligible rows, best first."""
    _require_eligible(problem)
    prefs = preferences or problem.preferences
    if prefs.method == "copa":
        return np.asarray(criteria.copa_ranking(problem.u, prefs.weight_vector(), p=prefs.p,
                                                eligible=problem.eligible))
    return _ranking_by_scores(scores(problem, preferences=prefs), problem.eligible)


def _ranking_by_scores(values: np.ndarray, eligible: np.ndarray) -> np.ndarray:
    candidates = np.flatnonzero(eligible & ~np.isnan(values))
    if candidates.size == 0:
        raise InvalidInputError("the criterion is undefined for every eligible row")
    order = np.lexsort((candidates, values[candidates]))
    return candidates[order]


def sweep(problem: SelectionProblem, *, n_alphas: int = 10_000, cache=None):
    """The alpha sweep for the problem's focus set and p (memoised per dataset)."""
    prefs = problem.preferences
    if not prefs.focus:
        raise InvalidInputError("the alpha sweep needs at least one focus objective")
    if len(prefs.focus) == len(prefs.objectives):
        raise InvalidInputError(
            "the alpha sweep needs at least one objective outside the focus set")
    _require_eligible(problem)
    focus_index = [prefs.objectives.index(f) for f in prefs.focus]
    key = dict(problem.cache_key, focus=list(prefs.focus), p=str(prefs.p), n_alphas=n_alphas,
               eligible=_mask_digest(problem.eligible))
    return memoized(cache, "alpha_sweep", problem.dataset_id, key,
                 lambda: sweep_core.alpha_sweep(problem.u, focus_index, p=prefs.p,
                                                n_alphas=n_alphas, eligible=problem.eligible))


def front_mask(problem: SelectionProblem, *, cache=None) -> np.ndarray:
    """Rows non-dominated, in all chosen objectives, among the rows passing the constraints
    (False for the others); memoised per dataset."""
    def compute():
        mask = np.zeros(problem.raw.shape[0], dtype=bool)
        eligible = np.flatnonzero(problem.eligible)
        if eligible.size:
            mask[eligible] = nondominated_mask(problem.raw[eligible],
                                               list(problem.preferences.directions))
        return mask

    key = dict(problem.cache_key, eligible=_mask_digest(problem.eligible))
    return memoized(cache, "nondominated_mask", problem.dataset_id, key, compute)


def _mask_digest(mask: np.ndarray) -> str:
    return hashlib.sha1(np.packbits(mask).tobytes()).hexdigest()
