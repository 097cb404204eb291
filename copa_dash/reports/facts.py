"""Everything a decision report states, gathered from the explorer's service as plain data.

:func:`decision_facts` opens nothing itself: it takes an opened dataset (bundled, uploaded,
or a table in memory) and a :class:`~.view.DecisionView`, runs the same computation as the
explorer (:func:`copa_dash.services.explorer.explore`, with the normalisations compared) and
keeps what the report shows: the pick with raw values and top-x% with a 95% interval, the
runners-up, the alpha range over which the pick holds and which rows take over outside it,
the pick under the other p of the slider, and the naive normalisations' picks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..core.errors import InvalidInputError
from ..core.validate import format_p
from ..services import explorer, robustness, selection
from ..services.catalog import OpenedDataset
from ..services.method_limits import PLAIN_NAMES
from ..services.pick_tie import PickTie, pick_tie
from . import view as views
from .provenance import Provenance, RowAccount, provenance, row_account, table_digest

RUNNERS_UP = 5
P_STOPS = (1.0, 2.0, 4.0, 8.0, math.inf)


@dataclass(frozen=True)
class ObjectiveValue:
    """One objective of one row: raw value and its CDF value with a 95% interval."""

    name: str
    direction: str
    label: str
    unit: str
    weight: float
    raw: float
    u: float
    u_low: float
    u_high: float


@dataclass(frozen=True)
class RankedRow:
    rank: int
    id: str
    criterion: float
    raw: tuple


@dataclass(frozen=True)
class AlphaRange:
    """Where the pick holds in the alpha sweep, and who takes over outside it."""

    low: float
    high: float
    below: str | None      # the pick just below ``low`` (None when low = 0)
    above: str | None      # the pick just above ``high`` (None when high = 1)
    n_alphas: int


@dataclass(frozen=True)
class AxesShown:
    """The axes of the report's figure: the page's when the view carries them, else the
    first focus objective against the next one, on a log scale where the values span more
    than two decades. ``xs``/``ys`` are every scored row's coordinates."""

    mode: str                # "raw", "cdf" or "summary"
    x: str
    y: str
    log_x: bool
    log_y: bool
    from_page: bool
    x_title: str
    y_title: str
    xs: np.ndarray
    ys: np.ndarray


@dataclass(frozen=True)
class DecisionFacts:
    """The content of a decision report (plain values: a template only formats them)."""

    provenance: Provenance
    rows: RowAccount
    view: views.DecisionView
    weights: tuple                 # ((objective, weight), ...) after normalisation
    pick_id: str
    pick_criterion: float
    pick_values: tuple             # ObjectiveValue per objective
    runners_up: tuple              # RankedRow, best first after the pick
    alpha_range: AlphaRange | None
    alpha_note: str
    picks_by_p: tuple              # ((p text, id), ...)
    baselines: tuple               # ((label, plain gloss, pick id or None, distinct over alpha, note), ...)
    dkw: float
    notes: tuple
    id_column: str
    exploration: explorer.Exploration
    tie: PickTie | None = None     # the rows tied with the pick and the rule that chose it
    axes: AxesShown | None = None
    # "How sure is this pick?": rank acceptability, flips, leave one out (services.robustness)
    robustness: object | None = None
    # when the candidates come from several tasks: the command line's note (services.task_span)
    tasks: str = ""


def decision_facts(opened, view: views.DecisionView, *, cache=None) -> DecisionFacts:
    """Compute the report's content for ``view`` of ``opened``.

    Parameters
    ----------
    opened : OpenedDataset
        From :func:`copa_dash.services.catalog.open_dataset` or :func:`opened_table`.
    view : DecisionView
        The view; what it leaves out comes from the dataset's default view.
    cache : AnalysisCache, optional
        The shared analysis cache (results are memoised per dataset).

    Raises
    ------
    InvalidInputError
        What the explorer raises for the view (fewer than two objectives, no row passing the
        constraints, an unknown column), with the same message.
    """
    resolved = views.resolve(view, opened.table, opened.default_view)
    prefs = views.preferences(resolved)
    constraints = views.row_filter(resolved)
    result = explorer.explore(opened, prefs, constraints, compare=True, cache=cache)
    problem = result.problem
    weights = prefs.weight_vector()
    i = result.pick
    n = problem.n_population
    values = []
    for k, name in enumerate(prefs.objectives):
        objective = opened.table.objective(name)
        u = float(problem.u[i, k])
        values.append(ObjectiveValue(
            name=name, direction=prefs.directions[k], label=objective.label or name,
            unit=objective.unit or "", weight=float(weights[k]), raw=float(problem.raw[i, k]),
            u=u, u_low=float(result.u_interval[0][k]), u_high=float(result.u_interval[1][k])))
    runners = tuple(
        RankedRow(rank=r + 2, id=str(problem.ids[j]), criterion=float(result.scores[j]),
                  raw=tuple(float(v) for v in problem.raw[j]))
        for r, j in enumerate(result.ranking[1:1 + RUNNERS_UP]))
    alpha_range, alpha_note = _alpha_range(result)
    return DecisionFacts(
        provenance=provenance(opened), rows=row_account(opened.table, problem, constraints),
        view=resolved, weights=tuple(zip(prefs.objectives, map(float, weights))),
        pick_id=str(problem.ids[i]), pick_criterion=float(result.scores[i]),
        pick_values=tuple(values), runners_up=runners, alpha_range=alpha_range,
        alpha_note=alpha_note, picks_by_p=_picks_by_p(problem), baselines=_baselines(result),
        dkw=float(result.dkw) if n else math.nan, notes=tuple(result.notes),
        id_column=opened.table.roles.id, exploration=result,
        tie=pick_tie(problem, result.scores, i), axes=_axes(result, resolved, opened.table),
        robustness=robustness.robustness(opened.table, prefs, constraints,
                                         dataset_id=opened.cache_id, cache=cache),
        tasks=result.task_span.cli_line("pick") if result.task_span else "")


def _alpha_range(result) -> tuple[AlphaRange | None, str]:
    sweep = result.sweep
    if sweep is None:
        return None, ("weights are set per objective, so there is no alpha to sweep"
                      if result.problem.preferences.weights is not None else
                      "no alpha sweep for this view")
    if result.pick_alpha_range is None:
        return None, ("the pick wins only between the sweep's grid alphas, so it has no alpha "
                      "range of its own")
    low, high = result.pick_alpha_range
    ids = result.problem.ids
    selected = np.asarray(sweep.selected)
    alphas = np.asarray(sweep.alphas)
    below = above = None
    before = np.flatnonzero(alphas < low)
    after = np.flatnonzero(alphas > high)
    if before.size:
        below = str(ids[selected[before[-1]]])
    if after.size:
        above = str(ids[selected[after[0]]])
    return AlphaRange(low=low, high=high, below=below, above=above, n_alphas=int(alphas.size)), ""


def _picks_by_p(problem) -> tuple:
    out = []
    for p in P_STOPS:
        prefs = replace(problem.preferences, p=p, method="copa")
        position = selection.select(problem, preferences=prefs)
        out.append((format_p(p), str(problem.ids[position])))
    return tuple(out)


def _baselines(result) -> tuple:
    ids = result.problem.ids
    out = []
    for b in result.baselines:
        label = explorer.BASELINE_LABELS[b.method]
        gloss = PLAIN_NAMES.get(b.method, label).removeprefix(label).strip(" ()")
        pick = str(ids[b.position]) if b.position is not None else None
        out.append((label, gloss, pick, b.distinct_over_alpha, b.message))
    return tuple(out)


def _axes(result, view: views.DecisionView, table) -> AxesShown:
    """The figure's axes: the page's (``view.axes``, ``x``, ``y``, ``log``) when given, as
    the page draws them (a log axis only where every value is positive); otherwise the
    first focus objective against the next one, log where a column spans > 2 decades."""
    problem = result.problem
    prefs = problem.preferences
    names = list(prefs.objectives)
    from_page = view.axes in ("raw", "cdf", "summary")
    mode = view.axes if from_page else "raw"
    first = prefs.focus[0] if prefs.focus else names[0]
    x = view.x if from_page and view.x in names else first
    y = view.y if from_page and view.y in names and view.y != x else \
        next(n for n in names if n != x)
    if mode == "summary":
        xs, ys = explorer.summary_coordinates(problem)
        focus = ", ".join(prefs.focus) or names[0]
        return AxesShown(mode, focus, "the other objectives", False, False, True,
                         f"top x% (u) of the focus ({focus})",
                         "how the other objectives rank together (CDF of the p-norm of their u)",
                         xs, ys)
    kx, ky = names.index(x), names.index(y)
    source = problem.raw if mode == "raw" else problem.u
    xs, ys = source[:, kx], source[:, ky]
    if mode == "cdf":
        return AxesShown(mode, x, y, False, False, from_page,
                         f"top x% in {_label(table, x)} (u: share of rows better)",
                         f"top x% in {_label(table, y)} (u: share of rows better)", xs, ys)
    if from_page:
        log_x = "x" in view.log and _positive(xs)
        log_y = "y" in view.log and _positive(ys)
    else:
        log_x, log_y = _wide(xs), _wide(ys)
    titles = [_raw_title(table, n, d) + (", log scale" if log else "")
              for n, d, log in ((x, prefs.directions[kx], log_x), (y, prefs.directions[ky], log_y))]
    return AxesShown(mode, x, y, log_x, log_y, from_page, *titles, xs, ys)


def _label(table, name: str) -> str:
    objective = table.objective(name)
    return objective.label or name


def _raw_title(table, name: str, direction: str) -> str:
    objective = table.objective(name)
    unit = f" [{objective.unit}]" if objective.unit else ""
    return f"{objective.label or name}{unit} ({'lower' if direction == 'min' else 'higher'} is better)"


def _positive(values) -> bool:
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    return bool(finite.size) and bool((finite > 0).all())


def _wide(values) -> bool:
    """A log scale where the values are positive and span more than two decades (a linear
    axis would squeeze most rows against zero, as CO2 cost does)."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    return _positive(finite) and finite.max() / finite.min() > 100


def opened_table(table, *, name: str = "table", title: str = "", source: str = "",
                 licence: str = "", description: str = "", default_view=None):
    """An in-memory table (a notebook's DataFrame, a file given to the CLI) as an opened
    dataset, so it goes through the same report as a bundled one.

    Raises
    ------
    InvalidInputError
        If ``name`` is empty.
    """
    if not name:
        raise InvalidInputError("the table needs a name")
    digest = table_digest(table.frame)
    return OpenedDataset(ref=name, cache_id="table-" + digest[:24], table=table,
                         title=title or name, description=description,
                         source=source or "a table given by the user", licence=licence,
                         default_view=default_view, kind="table")
