"""Compare whole systems: per-system front indicators and the significance of a Pareto
improvement, on a table with a system column (and a seed column for the test).

:func:`systems_view` gives every system's HV, ONVG, ONVG^, ONVGR, UD_bar, OS and radar
area (:func:`copa_dash.core.indicators.system_indicators`) with the reason of every
undefined value. :func:`significance_test` builds the runs, one per (system, seed) pair,
puts the runs of the chosen baseline systems on side 0 and those of the candidate systems
on side 1, and runs :func:`copa_dash.core.significance.pareto_improvement_test` with the
reference point frozen from the rows of both sides (METHODS.md, "Significance of a Pareto
improvement"); the point used comes back with the result. :func:`power_for_design`
simulates how often a design (seeds per side, effect size) detects an improvement.
Results are memoised per dataset in the shared analysis cache.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.dominance import nondominated_mask
from ..core.errors import InvalidInputError
from ..core.indicators import RADAR_AXES, SystemIndicators, Undefined, system_indicators
from ..core.significance import (
    DEFAULT_PERMUTATIONS,
    REF_RULES,
    ParetoImprovementTest,
    PowerEstimate,
    pareto_improvement_test,
    power_estimate,
)
from ..data.schema import EvalTable
from .objectives import missing_counts, resolve_objectives, rows_left_out_note
from .significance_verdict import SIGNIFICANCE_LEVEL

__all__ = [
    "DEFAULT_PERMUTATIONS",
    "INDICATORS",
    "LABELS",
    "NORMALIZATIONS",
    "RADAR_AXES",
    "RADAR_LABELS",
    "SignificanceView",
    "SystemsView",
    "design_from_sides",
    "parse_sides",
    "power_for_design",
    "significance_test",
    "system_names",
    "systems_view",
    "undefined_words",
]

INDICATORS = ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area")
NORMALIZATIONS = ("minmax", "cdf")
MAX_PERMUTATIONS = 1_000_000
LABELS = {"hv": "HV", "onvg": "ONVG", "onvg_hat": "ONVG^", "onvgr": "ONVGR",
          "ud_bar": "UD_bar", "os": "OS", "area": "radar area"}
RADAR_LABELS = tuple(LABELS[name] for name in RADAR_AXES)


def undefined_words(reason: Undefined, objectives) -> str:
    """Why an indicator is undefined, in the words every front end shows.

    The Systems page (table and radar), the command line, the notebook and the report
    all say it in these words, with the objectives named.

    Parameters
    ----------
    reason : Undefined
        The core's reason (:class:`copa_dash.core.indicators.Undefined`).
    objectives : sequence of str
        The objectives' names in the columns' order the core saw.

    Returns
    -------
    str
        A clause that follows "undefined: " or "undefined because".

    Examples
    --------
    >>> undefined_words(Undefined("flat_objective", objectives=(2,)), ["error", "time", "memory"])
    "the front of all systems has no spread in objective 'memory', so OS divides by zero"
    >>> undefined_words(Undefined("few_front_points", n_front=1), ["error", "time"])
    'needs at least 2 non-dominated points (the system has 1)'
    """
    if reason.kind == "no_rows":
        return "the system has no rows"
    if reason.kind == "few_front_points":
        return f"needs at least 2 non-dominated points (the system has {reason.n_front})"
    if reason.kind == "flat_objective":
        names = [repr(str(objectives[k])) for k in reason.objectives]
        which = (f"objective {names[0]}" if len(names) == 1
                 else f"objectives {', '.join(names[:-1])} and {names[-1]}")
        return f"the front of all systems has no spread in {which}, so OS divides by zero"
    raise ValueError(f"no words for an undefined indicator of kind {reason.kind!r}")


@dataclass(frozen=True)
class SystemsView:
    """Indicators of every system of a table, with the rows behind them."""

    systems: tuple                 # (S,) system names, in table order
    objectives: tuple              # (K,) names
    directions: tuple              # (K,) "min" | "max"
    indicators: SystemIndicators   # arrays indexed by system; rows as below
    system_of_row: np.ndarray      # (N,) system position of each used row
    row_ids: np.ndarray            # (N,) row ids (object)
    raw: np.ndarray                # (N, K) raw values of the used rows
    n_rows: np.ndarray             # (S,) rows per system
    notes: tuple

    def front_in(self, names) -> np.ndarray:
        """Rows on their own system's front in the objectives ``names`` (a projection).

        Raises
        ------
        InvalidInputError
            If a name is not one of the view's objectives.
        """
        unknown = [n for n in names if n not in self.objectives]
        if unknown:
            raise InvalidInputError(f"{', '.join(map(repr, unknown))} is not a chosen objective")
        columns = [self.objectives.index(n) for n in names]
        points = self.raw[:, columns]
        directions = [self.directions[c] for c in columns]
        mask = np.zeros(len(points), dtype=bool)
        for s in range(len(self.systems)):
            rows = np.flatnonzero(self.system_of_row == s)
            if rows.size:
                mask[rows] = nondominated_mask(points[rows], directions)
        return mask

    def records(self) -> list[dict]:
        """One ``{"system", "hv", ..., "area", "reasons"}`` per system (NaN where undefined)."""
        out = []
        for s, name in enumerate(self.systems):
            record = {"system": str(name)}
            record.update({key: float(getattr(self.indicators, key)[s]) for key in INDICATORS})
            record["hv_exact"] = not self.indicators.hv_is_estimate(s)
            record["hv_ci95"] = [float(self.indicators.hv_ci_low[s]),
                                 float(self.indicators.hv_ci_high[s])]
            record["hv_samples"] = int(self.indicators.hv_samples[s])
            record["reasons"] = {key: undefined_words(reason, self.objectives)
                                 for key, reason in self.indicators.reasons[s].items()}
            out.append(record)
        return out

    def why_undefined(self, system: int, name: str, /) -> str | None:
        """Why indicator ``name`` of system position ``system`` is undefined, in the
        words of :func:`undefined_words`; None when it has a value."""
        reason = self.indicators.reason(system, name)
        return None if reason is None else undefined_words(reason, self.objectives)

    def hv_estimated_systems(self) -> list[str]:
        """Names of the systems whose HV is a Monte-Carlo estimate (empty: all exact)."""
        return [str(name) for s, name in enumerate(self.systems)
                if self.indicators.hv_is_estimate(s)]

    def hv_estimate_note(self, budget_seconds: float | None,
                         interval_where: str = "is in the 'HV 95% interval' column"
                         ) -> str | None:
        """A plain sentence naming the systems whose HV is estimated, or None.

        ``interval_where`` ends "Its 95% interval ...": where the reader finds the
        intervals (the page's column by default; the CLI prints them below, the report
        inline)."""
        names = self.hv_estimated_systems()
        if not names:
            return None
        samples = int(self.indicators.hv_samples.max())
        return (f"HV of {', '.join(names)} is a Monte-Carlo estimate (the share of "
                f"{samples:,} random points of the box that the front dominates), not the "
                f"exact volume: with {len(self.objectives)} objectives the exact computation "
                f"was predicted to take over {budget_seconds:g} s per system. Its 95% "
                f"interval {interval_where}; every other HV is exact.")


@dataclass(frozen=True)
class SignificanceView:
    """A permutation test between two sides of systems, with the runs it used."""

    test: ParetoImprovementTest
    baseline: tuple
    candidate: tuple
    objectives: tuple
    directions: tuple
    run_labels: tuple              # (R,) "system · seed"
    run_side: np.ndarray           # (R,) 0 baseline, 1 candidate
    rows_per_run: np.ndarray       # (R,)
    notes: tuple


class _Cancelled(Exception):
    """Carries a cancelled test out of the cache's compute, so it is not stored."""

    def __init__(self, view: SignificanceView):
        super().__init__("cancelled")
        self.view = view


#: a bundled dataset whose rows belong to systems (the Systems page links it)
SYSTEMS_EXAMPLE = "fairness-adult-sex"
NO_SYSTEM_COLUMN = (
    "this table has no system column (the system each row belongs to), so there are "
    "no systems to compare: pick a dataset whose rows belong to systems (such as "
    f"{SYSTEMS_EXAMPLE}), or name the column (upload page: role 'system'; command "
    "line: --system COL)")


def system_names(table: EvalTable) -> list[str]:
    """The systems of ``table`` in table order (empty without a system column)."""
    column = table.roles.system
    if column is None:
        return []
    values = table.frame[column]
    return list(dict.fromkeys(values[values.notna()].astype(str)))


def _usable_rows(table: EvalTable, names, notes: list) -> tuple[np.ndarray, np.ndarray]:
    """Mask of rows with a system and every chosen objective, and their raw values."""
    if table.roles.system is None:
        raise InvalidInputError(NO_SYSTEM_COLUMN)
    raw = table.matrix(list(names))
    has_system = table.frame[table.roles.system].notna().to_numpy()
    complete = ~np.isnan(raw).any(axis=1)
    n_missing = int((has_system & ~complete).sum())
    if n_missing:
        notes.append(rows_left_out_note(
            n_missing, missing=missing_counts(table, list(names), has_system)))
    return has_system & complete, raw


def systems_view(table: EvalTable, *, objectives=None, normalize: str = "minmax",
                 sigma: float = 0.1, hv_budget_seconds: float | None = None,
                 dataset_id: str = "", cache=None) -> SystemsView:
    """Per-system indicators of ``table`` on the chosen objectives (memoised per dataset).

    Parameters
    ----------
    table : EvalTable
        Needs a system column.
    objectives : sequence of names or (name, direction), optional
        At least two; default every objective of the table.
    normalize : {"minmax", "cdf"}
        Scale of the objectives over all systems' rows: min-max (ideal 0, nadir 1) or
        COPA's u.
    sigma : float
        Niche radius of UD in normalised units.
    hv_budget_seconds : float, optional
        None: every HV exact. A number: a system's HV is a Monte-Carlo estimate when its
        exact computation is predicted to take longer than this (per system; see
        :func:`copa_dash.core.indicators.system_indicators`);
        :meth:`SystemsView.hv_estimate_note` says which.

    Raises
    ------
    InvalidInputError
        No system column, fewer than 2 objectives, an unknown objective or normalisation,
        a bad sigma, or no complete row.
    """
    if normalize not in NORMALIZATIONS:
        raise InvalidInputError(f"normalisation must be one of {', '.join(NORMALIZATIONS)}, "
                                f"not {normalize!r}")
    names, directions = resolve_objectives(table, objectives, at_least=2)
    notes: list[str] = []
    used, raw = _usable_rows(table, names, notes)
    if not used.any():
        raise InvalidInputError("no row has a system and every chosen objective")
    labels = table.frame[table.roles.system].to_numpy()[used].astype(str)
    systems = list(dict.fromkeys(labels))
    code = {name: s for s, name in enumerate(systems)}
    system_of_row = np.array([code[v] for v in labels], dtype=np.int64)

    def compute() -> SystemsView:
        indicators = system_indicators(raw[used], directions, system_index=system_of_row,
                                       n_systems=len(systems), normalize=normalize,
                                       sigma=sigma, hv_budget_seconds=hv_budget_seconds)
        return SystemsView(
            systems=tuple(systems), objectives=tuple(names), directions=tuple(directions),
            indicators=indicators, system_of_row=system_of_row,
            row_ids=np.asarray(table.ids[used], dtype=object), raw=raw[used],
            n_rows=np.bincount(system_of_row, minlength=len(systems)), notes=tuple(notes))

    if cache is None:
        return compute()
    key = {"objectives": names, "directions": directions, "normalize": normalize,
           "sigma": float(sigma) if isinstance(sigma, (int, float)) else str(sigma),
           "hv_budget_seconds": hv_budget_seconds}
    return cache.memoize("systems_view", dataset_id, key, compute)


def parse_sides(text) -> tuple[str, ...]:
    """``"A,B"`` or ``["A", "B"]`` -> ``("A", "B")`` (blank items dropped, order kept)."""
    items = text.split(",") if isinstance(text, str) else list(text or ())
    return tuple(dict.fromkeys(str(i).strip() for i in items if str(i).strip()))


def significance_blocker(table: EvalTable) -> str | None:
    """Why the significance test cannot run on ``table``, in words for a page; None if it can.

    The test permutes runs, (system, seed) pairs, so it needs a seed (replicate) column. A
    table of results already averaged over seeds or folds (amlb-2022, the leaderboards) has
    none, and no choice on the page can make one.
    """
    if table.roles.seed is not None:
        return None
    return ("This table has no seed column: each of its rows is already a summary (over seeds "
            "or folds), not one run, so there are no runs for the test to compare. The test "
            "needs several runs (seeds) per system; open a table that has them, such as the "
            "fairness tables, or upload one with a seed column.")


def _runs(table: EvalTable, used: np.ndarray, baseline, candidate):
    """Run id of each used row, side and label of each run of the two sides."""
    known = set(system_names(table))
    for what, side in (("baseline", baseline), ("candidate", candidate)):
        if not side:
            raise InvalidInputError(f"choose at least one {what} system")
        unknown = [s for s in side if s not in known]
        if unknown:
            raise InvalidInputError(f"{what} system(s) {', '.join(map(repr, unknown))} are not "
                                    f"in the system column {table.roles.system!r}")
    both = sorted(set(baseline) & set(candidate))
    if both:
        raise InvalidInputError(f"{', '.join(map(repr, both))} is on both sides: a system "
                                "belongs to the baseline or to the candidate")
    blocker = significance_blocker(table)
    if blocker:
        raise InvalidInputError(blocker)
    frame = table.frame
    system = frame[table.roles.system].to_numpy().astype(str)
    seed = frame[table.roles.seed].to_numpy().astype(str)
    side_of_system = {**{s: 0 for s in baseline}, **{s: 1 for s in candidate}}
    in_test = used & np.isin(system, list(side_of_system))
    pairs = list(dict.fromkeys(zip(system[in_test], seed[in_test])))
    run_of_pair = {pair: r for r, pair in enumerate(pairs)}
    run_index = np.array([run_of_pair[p] for p in zip(system[in_test], seed[in_test])],
                         dtype=np.int64)
    run_side = np.array([side_of_system[s] for s, _ in pairs], dtype=np.int64)
    labels = tuple(f"{s} · {seed_}" for s, seed_ in pairs)
    return in_test, run_index, run_side, labels


def significance_test(table: EvalTable, *, baseline, candidate, objectives=None,
                      n_permutations: int = DEFAULT_PERMUTATIONS, rng_seed: int | None = 0,
                      ref_rule: str = "range", progress=None, cancel=None,
                      dataset_id: str = "", cache=None) -> SignificanceView:
    """Is the candidate side's front better than the baseline side's beyond seed noise?

    Parameters
    ----------
    table : EvalTable
        Needs a system and a seed column; a config column, when present, makes each side's
        front the front of its per-config means.
    baseline, candidate : str or sequence of str
        System names (``"A,B"`` or a list); a side holds every run of its systems.
    objectives : sequence of names or (name, direction), optional
        At least two; default every objective of the table.
    n_permutations : int
        B, 1 to 1,000,000 (default 5,000).
    rng_seed : int or None
        Seed of the permutations; the same inputs and seed give the same p-value. None draws
        one (reported in ``test.seed``) and skips the cache.
    ref_rule : {"range", "worst-multiple"}
        How the reference point is frozen from the rows of both sides.
    progress, cancel : callable, optional
        Passed to the core: ``progress(fraction)``, ``cancel() -> bool``. A cancelled test
        is returned (``test.cancelled``) but never cached.

    Raises
    ------
    InvalidInputError
        No system or seed column, an unknown system, a system on both sides, bad B or seed.
    """
    if isinstance(n_permutations, bool) or not isinstance(n_permutations, (int, np.integer)) \
            or not 1 <= n_permutations <= MAX_PERMUTATIONS:
        raise InvalidInputError(f"the number of permutations must be a whole number from 1 to "
                                f"{MAX_PERMUTATIONS:,}, not {n_permutations!r}")
    if ref_rule not in REF_RULES:
        raise InvalidInputError(f"the reference rule must be one of {', '.join(REF_RULES)}, "
                                f"not {ref_rule!r}")
    baseline, candidate = parse_sides(baseline), parse_sides(candidate)
    names, directions = resolve_objectives(table, objectives, at_least=2)
    notes: list[str] = []
    used, raw = _usable_rows(table, names, notes)
    in_test, run_index, run_side, labels = _runs(table, used, baseline, candidate)
    config_index = None
    if table.roles.config is not None:
        configs = table.frame[table.roles.config].to_numpy().astype(str)[in_test]
        config_index = np.unique(configs, return_inverse=True)[1].astype(np.int64)
        notes.append(f"Each side's front is the front of its per-{table.roles.config} means "
                     "over its runs.")

    def compute() -> SignificanceView:
        test = pareto_improvement_test(
            raw[in_test], directions, run_index=run_index, run_side=run_side,
            config_index=config_index, n_permutations=int(n_permutations), rng=rng_seed,
            ref_rule=ref_rule, progress=progress, cancel=cancel)
        view = SignificanceView(
            test=test, baseline=baseline, candidate=candidate, objectives=tuple(names),
            directions=tuple(directions), run_labels=labels, run_side=run_side,
            rows_per_run=np.bincount(run_index, minlength=len(labels)), notes=tuple(notes))
        if test.cancelled:
            raise _Cancelled(view)
        return view

    try:
        if cache is None or rng_seed is None:
            return compute()
        key = {"baseline": list(baseline), "candidate": list(candidate), "objectives": names,
               "directions": directions, "permutations": int(n_permutations),
               "seed": int(rng_seed), "ref_rule": ref_rule}
        return cache.memoize("significance_test", dataset_id, key, compute)
    except _Cancelled as stopped:
        return stopped.view


def design_from_sides(table: EvalTable, *, baseline, candidate, objectives=None) -> dict:
    """A starting design for :func:`power_for_design` read off the chosen sides.

    Returns ``{"n_seeds", "points_per_run", "noise_sd", "effect"}`` in the simulation's
    units (objectives min-max scaled to [0, 1] over the two sides' rows): runs per side
    (the smaller side), the median rows per run, the seed noise as the root mean
    across-run variance of each system's run-mean point, and the observed effect as the
    mean improvement of the candidate's run means over the baseline's (0 if worse).
    """
    baseline, candidate = parse_sides(baseline), parse_sides(candidate)
    names, directions = resolve_objectives(table, objectives, at_least=2)
    used, raw = _usable_rows(table, names, [])
    in_test, run_index, run_side, labels = _runs(table, used, baseline, candidate)
    y = raw[in_test] * np.where(np.array(directions) == "max", -1.0, 1.0)
    span = np.ptp(y, axis=0)
    z = (y - y.min(axis=0)) / np.where(span > 0, span, 1.0)
    n_runs = len(labels)
    run_means = np.zeros((n_runs, z.shape[1]))
    np.add.at(run_means, run_index, z)
    rows_per_run = np.bincount(run_index, minlength=n_runs)
    run_means /= rows_per_run[:, None]
    system_of_run = [label.split(" · ")[0] for label in labels]
    variances = []
    for name in dict.fromkeys(system_of_run):
        members = run_means[[s == name for s in system_of_run]]
        if len(members) > 1:
            variances.append(members.var(axis=0, ddof=1).mean())
    noise = float(np.sqrt(np.mean(variances))) if variances else 0.05
    gain = run_means[run_side == 0].mean(axis=0) - run_means[run_side == 1].mean(axis=0)
    return {"n_seeds": int(min((run_side == 0).sum(), (run_side == 1).sum())),
            "points_per_run": int(np.median(rows_per_run)),
            "noise_sd": round(noise, 4), "effect": round(max(0.0, float(gain.mean())), 4)}


def power_for_design(*, n_seeds: int, effect: float, noise_sd: float, points_per_run: int = 1,
                     n_objectives: int = 2, alpha: float = SIGNIFICANCE_LEVEL,
                     n_simulations: int = 200,
                     n_permutations: int = 200, rng_seed: int = 0,
                     cache=None) -> PowerEstimate:
    """Power of the test for a design, by simulation (memoised; see
    :func:`copa_dash.core.significance.power_estimate` for the simulated fronts).

    Raises
    ------
    InvalidInputError
        Bad counts, a negative effect or noise, alpha outside (0, 1).
    """
    arguments = {"n_seeds": n_seeds, "points_per_run": points_per_run, "effect": effect,
                 "noise_sd": noise_sd, "n_objectives": n_objectives, "alpha": alpha,
                 "n_simulations": n_simulations, "n_permutations": n_permutations,
                 "rng": rng_seed}

    def compute() -> PowerEstimate:
        return power_estimate(**arguments)

    if cache is None:
        return compute()
    return cache.memoize("power_for_design", "power-design", arguments, compute)

