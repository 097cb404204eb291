"""How sure is the view's pick: the one path the page, the report, the CLI and the notebook share.

:func:`robustness` takes the table, the view's preferences and constraints (those of
:mod:`.selection`) and returns a frozen :class:`Robustness`: rank acceptability over random
weights, how often the pick stays under weights near the current ones, the nearest alpha,
p and per-objective weight changes that flip it, the pick with each objective left out,
and, where the table allows, front membership under noise and what missing scores could
change. Memoised per dataset when a cache is given.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ..core import robustness as core
from ..core import robustness_noise as noise
from ..core.errors import InvalidInputError
from ..core.ranks import cdf_transform
from ..data.filters import RowFilter
from ..data.schema import EvalTable
from . import selection
from .recent import PerTable

#: kinds of uncertainty column, and what turns the column into a standard deviation
UNCERTAINTY_KINDS = {"stderr": 1.0, "std": 1.0, "ci95": 1.0 / 1.959963984540054}
LOCAL_RADIUS = 0.1
NOISE_SAMPLES = 200
MAX_FILLED_ROWS = 50       # picks over fillings only when this few rows miss a score
FILLINGS = 64


@dataclass(frozen=True)
class Robustness:
    """Everything "How sure is this pick?" says about one view (plain values, JSON-ready).

    Attributes
    ----------
    pick : str
        The view's pick (as ``select``).
    objectives : tuple of str
    weights : tuple of float
        The view's weights (normalised).
    p : float
    samples, seed : int
        Weight draws (Dirichlet(1) on the simplex of the view's objectives) and their seed.
    acceptability : tuple of dict
        ``{"id", "rank1", "top3", "rank1_se", "top3_se", "central_weights"}`` for every row
        with a rank-1 or top-3 share above 0, by ``rank1`` then ``top3``, descending.
    local : dict
        ``{"radius", "samples", "stays", "stays_se"}``: share of draws near the current weights
        (no weight moved by more than ``radius``) that keep the pick.
    flips : tuple of dict
        ``{"setting", "objective", "from", "to", "id", "text"}``, nearest first per setting;
        ``"inf"`` stands for p = inf.
    leave_one_out : dict
        ``{objective: id}``: the pick without that objective (same p, weights renormalised).
    membership : dict or None
        ``{"method", "samples", "rows": [{"id", "front", "pick"}]}`` where runs or
        uncertainty columns allow it.
    missing : dict or None
        What rows with a missing score could be, where the view has such rows.
    """

    pick: str
    objectives: tuple[str, ...]
    weights: tuple[float, ...]
    p: float
    samples: int
    seed: int
    acceptability: tuple[dict, ...]
    local: dict
    flips: tuple[dict, ...]
    leave_one_out: dict
    membership: dict | None = None
    missing: dict | None = None

    def to_json(self) -> dict:
        """The CLI's ``--json`` object (the issue's contract plus the other parts)."""
        return {"pick": self.pick, "samples": self.samples, "seed": self.seed,
                "objectives": list(self.objectives), "weights": list(self.weights),
                "p": _number(self.p), "acceptability": [dict(a) for a in self.acceptability],
                "local": dict(self.local), "flips": [dict(f) for f in self.flips],
                "leave_one_out": dict(self.leave_one_out), "membership": self.membership,
                "missing": self.missing}

    def verdict(self) -> str:
        """One sentence: is the pick robust or a coin toss?"""
        share = next((a["rank1"] for a in self.acceptability if a["id"] == self.pick), 0.0)
        stays = self.local["stays"]
        if stays >= 0.95:
            how = ("robust" if share >= 0.5 else
                   "stable near your weights, but other weightings pick other models")
        elif stays >= 0.8:
            how = "fairly stable near your weights"
        elif stays >= 0.5:
            how = "sensitive to the weights"
        else:
            how = "a coin toss"
        r = self.local["radius"]
        # "small changes" in words a newcomer reads (the blend (1 - r) yours + r random, which
        # moves no weight by more than r, stopped one: "(90% yours, 10% a random weighting)")
        return (f"{self.pick} stays the pick for {100 * stays:.0f}% of small changes to your "
                f"weights (none moves by more than {r:g}) and is first for {100 * share:.0f}% "
                f"of all weightings: {how}.")


#: the draws :func:`robustness` makes unless told otherwise (and :func:`kept_robustness` looks up)
SAMPLES, SEED = 10_000, 0


def robustness(table: EvalTable, preferences: selection.Preferences,
               row_filter: RowFilter | None = None, *, samples: int = SAMPLES, seed: int = SEED,
               radius: float = LOCAL_RADIUS, uncertainty: dict | None = None,
               dataset_id: str = "", cache=None) -> Robustness:
    """How sure the view's COPA pick is.

    Parameters
    ----------
    table, preferences, row_filter
        The view, as for :func:`.selection.build_problem`.
    samples, seed
        Weight draws and their seed.
    radius
        The local variant's radius (no weight moves by more than this).
    uncertainty : dict, optional
        ``{metric: (kind, column)}`` pairing an objective with its uncertainty column;
        kind ``"stderr"`` or ``"std"`` (the column is the standard deviation of the score's
        draw) or ``"ci95"`` (the column is the half-width of a 95% interval; or give two
        columns ``(low, high)``). Without it, a table with system and seed roles is
        bootstrapped over its runs; another table uses the spread columns the reader pairs
        with the view's objectives (:func:`paired_uncertainty`), so the page, the CLI and
        the notebook draw the same noise.

    Raises
    ------
    InvalidInputError
        If the view cannot pick (as ``select``), the method is not COPA, or the uncertainty
        mapping names an unknown metric, kind or column.
    """
    if preferences.method != "copa":
        raise InvalidInputError("'How sure is this pick?' is for COPA picks: use method copa")
    key, row_filter, uncertainty = _memo_key(table, preferences, row_filter, samples, seed,
                                             radius, uncertainty)
    return selection.memoized(cache, "robustness", dataset_id, key, lambda: _compute(
        table, preferences, row_filter, samples, seed, radius, uncertainty, dataset_id, cache))


def kept_robustness(table: EvalTable, preferences: selection.Preferences,
                    row_filter: RowFilter | None = None, *, dataset_id: str = "",
                    cache=None) -> Robustness | None:
    """:func:`robustness` with its default draws when the analysis ``cache`` holds it already,
    else ``None``, without computing anything (a page shows a view seen before at once, and
    asks for the computation only on a miss). A view that cannot pick is ``None`` too:
    :func:`robustness` says why."""
    if cache is None or not dataset_id or preferences.method != "copa":
        return None
    return cache.peek("robustness", dataset_id, default_memo_key(table, preferences, row_filter))


def default_memo_key(table: EvalTable, preferences: selection.Preferences,
                     row_filter: RowFilter | None = None) -> dict:
    """The analysis cache's arguments (under ``"robustness"``) of :func:`robustness` with its
    default draws: what :func:`kept_robustness` looks up and a background job
    (:mod:`.robustness_jobs`) is named after."""
    return _memo_key(table, preferences, row_filter, SAMPLES, SEED, LOCAL_RADIUS, None)[0]


def _memo_key(table, preferences, row_filter, samples, seed, radius, uncertainty):
    """The memo key of a :func:`robustness` call, with its row filter and its uncertainty
    mapping filled in as the call uses them."""
    if uncertainty is None and not (table.roles.system and table.roles.seed):
        uncertainty = paired_uncertainty(table, preferences.objectives) or None
    row_filter = row_filter or RowFilter()
    key = {"preferences": _key_of(preferences), "filter": row_filter.key(), "samples": samples,
           "seed": seed, "radius": radius,
           "uncertainty": sorted((m, k, list(c) if isinstance(c, (tuple, list)) else c)
                                 for m, (k, c) in (uncertainty or {}).items())}
    return key, row_filter, uncertainty


#: the reader's spread words (data/vocabulary.toml, ``uncertainty``) that say what the
#: robustness draws need: a standard error or a standard deviation of the score. Variances,
#: one-sided CI bounds and a bare "±" (a deviation or an interval?) are not guessed at.
_SPREAD_AS = {"standard_error": "stderr", "stderr": "stderr", "se": "stderr", "sem": "stderr",
              "std": "std", "sd": "std", "stdev": "std"}


def paired_uncertainty(table: EvalTable, objectives) -> dict:
    """``{metric: (kind, column)}``: the spread columns the upload reader pairs with the
    view's ``objectives`` (:attr:`copa_dash.data.proposal.Proposal.uncertainty`), for those
    whose spread word says standard error or standard deviation.

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.data.schema import Objective, Roles
    >>> frame = pd.DataFrame({"m": ["a", "b", "c"], "win_rate": [50.0, 40.0, 30.0],
    ...                       "standard_error": [1.0, 1.2, 0.9], "cost": [3.0, 2.0, 1.0]})
    >>> table = EvalTable(frame, Roles(id="m", objectives=(Objective("win_rate", "max"),
    ...                                                     Objective("cost", "min"))))
    >>> paired_uncertainty(table, ["win_rate", "cost"])
    {'win_rate': ('stderr', 'standard_error')}
    """
    wanted = set(objectives)
    pairs = _reader_pairs(table)
    return {metric: (_SPREAD_AS[kind], column) for metric, (kind, column) in pairs.items()
            if metric in wanted and kind in _SPREAD_AS and column in table.frame.columns}


# the reader's pairs of each table, read once per table object: the reader goes through every
# column (5-75 ms on Open LLM's 2,921 rows, by the load), and the explorer's view callback asks
# for the memo key of the view's robustness on every tick.
_PAIRS = PerTable()


def _reader_pairs(table: EvalTable) -> dict:
    """``propose(table.frame).uncertainty``, worked out once per table."""
    from ..data.proposal import propose

    return _PAIRS.get(table, None, lambda: dict(propose(table.frame).uncertainty))


def _key_of(prefs: selection.Preferences) -> dict:
    return {"objectives": list(prefs.objectives), "directions": list(prefs.directions),
            "focus": list(prefs.focus), "alpha": prefs.alpha, "p": str(prefs.p),
            "weights": None if prefs.weights is None else list(prefs.weights),
            "population": prefs.population}


def _compute(table, prefs, row_filter, samples, seed, radius, uncertainty, dataset_id, cache):
    problem = selection.build_problem(table, prefs, row_filter, dataset_id=dataset_id,
                                      cache=cache)
    pick = selection.select(problem)
    weights = prefs.weight_vector()
    ids = [str(i) for i in problem.ids]
    names = prefs.objectives
    # the weights do not enter rank acceptability: a slider move finds it in the cache
    key = {"objectives": list(prefs.objectives), "directions": list(prefs.directions),
           "p": str(prefs.p), "population": prefs.population, "filter": row_filter.key(),
           "samples": samples, "seed": seed}
    accept = selection.memoized(cache, "rank_acceptability", dataset_id, key, lambda: (
        core.rank_acceptability(problem.u, p=prefs.p, eligible=problem.eligible,
                                samples=samples, rng=seed)))
    local = core.rank_acceptability(problem.u, p=prefs.p, eligible=problem.eligible,
                                    samples=samples, rng=seed, depth=1, center=weights,
                                    radius=radius)
    stays = float(local.rank1[pick])
    return Robustness(
        pick=ids[pick], objectives=tuple(names), weights=tuple(float(w) for w in weights),
        p=float(prefs.p), samples=int(samples), seed=int(seed),
        acceptability=_acceptability_rows(accept, ids, names),
        local={"radius": float(radius), "samples": int(samples), "stays": stays,
               "stays_se": float(local.stderr(stays))},
        flips=tuple(_flips(problem, prefs, weights, ids)),
        leave_one_out=_leave_one_out(table, prefs, row_filter, weights, dataset_id, cache,
                                     problem=problem),
        membership=_membership(table, problem, prefs, weights, uncertainty, seed),
        missing=_missing(table, prefs, row_filter, weights, seed))


def _acceptability_rows(accept: core.Acceptability, ids, names) -> tuple[dict, ...]:
    shown = np.flatnonzero((accept.rank1 > 0) | (accept.top3 > 0))
    order = shown[np.lexsort((shown, -accept.top3[shown], -accept.rank1[shown]))]
    rows = []
    for i in order:
        central = accept.central_weights[i]
        rows.append({"id": ids[i], "rank1": float(accept.rank1[i]), "top3": float(accept.top3[i]),
                     "rank1_se": float(accept.stderr(accept.rank1[i])),
                     "top3_se": float(accept.stderr(accept.top3[i])),
                     "central_weights": None if np.isnan(central).any() else
                     {n: float(w) for n, w in zip(names, central)}})
    return tuple(rows)


def _flips(problem, prefs, weights, ids) -> list[dict]:
    found = []
    if prefs.weights is None and prefs.focus and len(prefs.focus) < len(prefs.objectives):
        focus = [prefs.objectives.index(f) for f in prefs.focus]
        found += core.alpha_flips(problem.u, focus, prefs.alpha, p=prefs.p,
                                  eligible=problem.eligible)
    found += core.p_flips(problem.u, weights, p=prefs.p, eligible=problem.eligible)
    if len(prefs.objectives) > 1:
        found += core.weight_flips(problem.u, weights, p=prefs.p, eligible=problem.eligible)[:2]
    return [{"setting": f.setting,
             "objective": prefs.objectives[f.objective] if f.objective >= 0 else None,
             "from": _number(f.start), "to": _number(f.to), "id": ids[f.row],
             "text": core.describe_flip(f, prefs.objectives, ids)} for f in found]


def _number(value: float):
    """A float for JSON: ``"inf"`` for p = inf (JSON has no infinity; null would lose it)."""
    return "inf" if math.isinf(value) else float(value)


def _leave_one_out(table, prefs, row_filter, weights, dataset_id, cache, *,
                   problem=None) -> dict:
    """The pick of the view without each objective, by the selection service itself.

    With the view's ``problem`` given, when no row left out of it for a missing value comes
    back without objective k (none misses k alone), the smaller view scores the same rows
    over the same population, and each column's u is that column's own CDF
    (``cdf_transform`` works column by column), so its problem is the view's without column
    k (:func:`_without`), with no CDF computed again. Otherwise it is built from the table.
    """
    out = {}
    if len(prefs.objectives) < 2:
        return out
    missing = np.isnan(table.matrix(list(prefs.objectives))) if problem is not None else None
    for k, name in enumerate(prefs.objectives):
        rest = np.delete(weights, k)
        rest = rest / rest.sum() if rest.sum() > 0 else np.full(rest.size, 1.0 / rest.size)
        keep = [j for j in range(len(prefs.objectives)) if j != k]
        smaller = replace(prefs, objectives=tuple(prefs.objectives[j] for j in keep),
                          directions=tuple(prefs.directions[j] for j in keep), focus=(),
                          weights=tuple(float(w) for w in rest))
        try:
            if missing is not None and _same_rows(missing, k, problem):
                less = _without(problem, smaller, k)
            else:
                less = selection.build_problem(table, smaller, row_filter,
                                               dataset_id=dataset_id, cache=cache)
            out[name] = str(less.ids[selection.select(less)])
        except InvalidInputError:
            out[name] = None
    return out


def _same_rows(missing: np.ndarray, k: int, problem: selection.SelectionProblem) -> bool:
    """True when the rows with every objective but k (``missing``: the table's NaN cells in
    the view's objectives) are the rows ``problem`` scores."""
    complete = ~np.delete(missing, k, axis=1).any(axis=1)
    return int(complete.sum()) == problem.rows.size


def _without(problem: selection.SelectionProblem, smaller: selection.Preferences, k: int
             ) -> selection.SelectionProblem:
    """``problem`` without objective ``k``, for ``smaller`` (its preferences without it); only
    when no row comes back without k (:func:`_same_rows`, see :func:`_leave_one_out`)."""
    keep = [j for j in range(problem.raw.shape[1]) if j != k]
    key = dict(problem.cache_key, objectives=list(smaller.objectives),
               directions=list(smaller.directions))
    return replace(problem, preferences=smaller, raw=np.ascontiguousarray(problem.raw[:, keep]),
                   u=np.ascontiguousarray(problem.u[:, keep]), cache_key=key)


def _membership(table, problem, prefs, weights, uncertainty, seed) -> dict | None:
    roles = table.roles
    rows = problem.eligible_rows
    raw = problem.raw[problem.eligible]
    if uncertainty:
        scale = _scales(table, prefs, uncertainty)[rows]
        draws = noise.normal_draws(raw, scale, samples=NOISE_SAMPLES, rng=seed)
        ids = [str(i) for i in problem.ids[problem.eligible]]
        used = ", ".join(f"{m}: {k} column {c}" for m, (k, c) in uncertainty.items())
        method = f"scores drawn from a normal with the stated uncertainty ({used})"
    elif roles.system and roles.seed:
        # a model is a system, or a (system, config) pair when the table has configs (a
        # threshold, a hyperparameter): its rows are its runs (seeds), resampled
        labels = _words(table.frame[roles.system])
        if roles.config:
            labels = labels + " / " + _words(table.frame[roles.config])
        labels = labels.to_numpy(dtype=object)[rows].astype(str)
        names, groups = np.unique(labels, return_inverse=True)
        if len(names) < 2 or len(names) == len(rows):
            return None
        draws = noise.bootstrap_means(raw, groups, samples=NOISE_SAMPLES, rng=seed)
        ids = [str(n) for n in names]
        per = f"{roles.system} / {roles.config}" if roles.config else roles.system
        method = f"bootstrap of the runs ({roles.seed}) of each {per}, means per {per}"
    else:
        return None
    result = noise.front_membership(draws, list(prefs.directions), weights, p=prefs.p)
    order = np.lexsort((-result.front, -result.pick))
    return {"method": method, "samples": NOISE_SAMPLES, "seed": int(seed),
            "rows": [{"id": ids[i], "front": float(result.front[i]),
                      "pick": float(result.pick[i])} for i in order
                     if result.front[i] > 0 or result.pick[i] > 0]}


def _words(column: pd.Series) -> pd.Series:
    """The column as text, a missing value as "(none)".

    Why not ``astype(str)`` alone: pandas 3 keeps a missing value missing there, so a join
    with it is missing too, and ``to_numpy(dtype=str)`` of such a column cuts every label to
    one character.
    """
    return column.astype(object).where(column.notna(), "(none)").astype(str)


def _scales(table, prefs, uncertainty) -> np.ndarray:
    frame = table.frame
    scale = np.zeros((len(frame), len(prefs.objectives)))
    for metric, (kind, column) in uncertainty.items():
        if metric not in prefs.objectives:
            raise InvalidInputError(f"uncertainty names {metric!r}, not one of the view's "
                                    f"objectives ({', '.join(prefs.objectives)})")
        if kind not in UNCERTAINTY_KINDS:
            raise InvalidInputError(f"uncertainty kind {kind!r}: use one of "
                                    f"{', '.join(UNCERTAINTY_KINDS)}")
        columns = list(column) if isinstance(column, (tuple, list)) else [column]
        unknown = [c for c in columns if c not in frame.columns]
        if unknown:
            raise InvalidInputError(f"the table has no uncertainty column {unknown[0]!r}")
        values = [frame[c].to_numpy(dtype=np.float64, na_value=np.nan) for c in columns]
        half = values[0] if len(values) == 1 else (values[1] - values[0]) / 2.0
        scale[:, prefs.objectives.index(metric)] = np.abs(half) * UNCERTAINTY_KINDS[kind]
    return scale


def _missing(table, prefs, row_filter, weights, seed) -> dict | None:
    raw = table.matrix(list(prefs.objectives))
    passes = row_filter.mask(table.frame)
    incomplete = np.isnan(raw).any(axis=1) & ~np.isnan(raw).all(axis=1) & passes
    if not incomplete.any():
        return None
    # the relations of the rows passing the constraints, within their own observed ranges
    rows = np.flatnonzero(passes & ~np.isnan(raw).all(axis=1))
    rel = noise.missing_relations(raw[rows], list(prefs.directions))
    ids = table.ids[rows]
    always = rel.always_dominated.any(axis=1)
    maybe = rel.maybe_dominated.any(axis=1) & ~always
    out = {"rows": int(rel.rows.size),
           "always_dominated": int(always.sum()), "maybe_dominated": int(maybe.sum()),
           "never_dominated": int((~always & ~maybe).sum()),
           "could_be_on_front": [str(ids[r]) for r, a in zip(rel.rows, always) if not a][:20]}
    if rel.rows.size <= MAX_FILLED_ROWS:
        filled = noise.picks_over_fillings(raw[rows], list(prefs.directions), weights, p=prefs.p,
                                           max_fillings=FILLINGS, rng=seed)
        out.update(picks=[{"id": str(ids[r]), "share": float(s)}
                          for r, s in zip(filled.rows, filled.shares)],
                   fillings=filled.n_fillings, exhaustive=filled.exhaustive)
    return out


def entries_acceptability(ids, raw, directions, *, p, samples: int = 10_000, seed: int = 0,
                          dataset_id: str = "", cache=None) -> tuple[dict, ...]:
    """Rank acceptability of already-aggregated entries (the Rankings page's rows: models, or
    systems' means): u over the entries, Dirichlet(1) weights, p as given; the rows of
    :attr:`Robustness.acceptability`. Memoised on the values themselves."""
    raw = np.ascontiguousarray(raw, dtype=np.float64)
    p = float(p)
    digest = hashlib.sha1(raw.tobytes() + "\x00".join(map(str, ids)).encode()).hexdigest()
    key = {"values": digest, "directions": list(directions), "p": str(p), "samples": samples,
           "seed": seed}

    def compute():
        u = cdf_transform(raw, list(directions))
        accept = core.rank_acceptability(u, p=p, samples=samples, rng=seed)
        return _acceptability_rows(accept, [str(i) for i in ids], [str(k) for k in range(raw.shape[1])])

    return selection.memoized(cache, "entries_acceptability", dataset_id, key, compute)


def flip_sentence(result: Robustness) -> str:
    """The nearest flips in words, for the page and the report."""
    if not result.flips:
        return "No single change of alpha, p or one weight changes the pick."
    parts = []
    for setting in ("alpha", "p", "weight"):
        texts = [f["text"] for f in result.flips if f["setting"] == setting]
        parts += texts[:2]
    return "; ".join(parts) + "."


__all__ = ["UNCERTAINTY_KINDS", "Robustness", "default_memo_key", "entries_acceptability",
           "flip_sentence", "kept_robustness", "robustness"]
