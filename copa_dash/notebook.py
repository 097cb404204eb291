"""The notebook API: the command line's answers with pandas in and out.

Every function takes a DataFrame (one row per model; the ids are the index, or the column
named by ``id``) with ``objectives={"acc": "max", "co2": "min"}``, or a bundled dataset's name
(its roles and default view, as ``copa-dash ... --dataset NAME``), and mirrors the command of
the same name: the same options, the same defaults, the same result (the tests compare them).

>>> import copa_dash, pandas as pd
>>> df = pd.DataFrame({"acc": [0.9, 0.8, 0.7], "co2": [3.0, 1.0, 0.5]}, index=["a", "b", "c"])
>>> copa_dash.select(df, objectives={"acc": "max", "co2": "min"}, focus="co2", alpha=0.5).pick
'b'

Results are small objects with the answer as attributes (``.pick``, ``.table``, ...) and a
``_repr_html_`` for Jupyter. :func:`explore` opens the dashboard's explorer on the DataFrame
inside the notebook (the table stays in the kernel; nothing is uploaded) and :func:`report`
writes the decision or systems report.
"""

from __future__ import annotations

import math
import socket
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path

import numpy as np
import pandas as pd
from flask import redirect, request

from . import reports
from .app_factory import create_app
from .core.errors import InvalidInputError
from .core.hypervolume import default_reference_point
from .core.hypervolume import hypervolume as hv
from .core.validate import check_p, format_p
from .data.bundled import load_bundled
from .data.filters import RowFilter, filter_from_view, filter_from_where, value_sets_from_in
from .data.guessed_table import guessed_table
from .data.io import build_eval_table, read_frame_report
from .data.schema import DefaultView, EvalTable, Objective, Roles
from .data.twin_columns import left_out_twins_note
from .notebook_compile import choose_mode, compile_later
from .reports import opened_table
from .reports import view as views
from .services import selection
from .services import systems as systems_service
from .services.catalog import keep_in_memory, open_dataset
from .services.default_view import first_view
from .services.objectives import rows_left_out_note
from .services.significance_verdict import verdict
from .services.task_span import task_span
from .services.views import link

__all__ = ["explore", "front", "hypervolume", "indicators", "rank", "report", "select",
           "significance", "sweep"]

# first calls answer through the numpy twins while kernels compile in another process
# (copa_dash/notebook_compile.py); COPA_JIT_MODE overrides
choose_mode()


# --- the table ---------------------------------------------------------------------------

def _objective_pairs(objectives) -> list[tuple[str, str]]:
    """``{"acc": "max"}``, ``["acc:max"]`` or ``[("acc", "max")]`` -> ``[("acc", "max")]``."""
    if objectives is None:
        return []
    if isinstance(objectives, dict):
        return [(str(k), str(v)) for k, v in objectives.items()]
    if isinstance(objectives, str):
        objectives = [objectives]
    pairs = []
    for item in objectives:
        if isinstance(item, str):
            name, sep, direction = item.rpartition(":")
            if not sep:
                raise InvalidInputError(f"objective {item!r}: write NAME:min or NAME:max, or "
                                        "give a dict {name: 'min' | 'max'}")
            pairs.append((name, direction))
        else:
            name, direction = item
            pairs.append((str(name), str(direction)))
    return pairs


def _names(value) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(map(str, value))


def _table(data, objectives=None, id=None, **roles):
    """``(EvalTable, DatasetInfo or None, name)`` from a DataFrame or a bundled name, as
    ``copa-dash`` reads ``TABLE --id --objective`` or ``--dataset NAME``: a DataFrame is read
    by the rules of a file (:func:`~copa_dash.data.io.read_frame_report`), and what
    ``objectives`` and ``id`` leave open is guessed as for a file
    (:func:`~copa_dash.data.guessed_table.guessed_table`; ids: the index unless it is the
    default 0, 1, 2, ...)."""
    pairs = _objective_pairs(objectives)
    roles = {k: v for k, v in roles.items() if v}
    if isinstance(data, (str, EvalTable)):  # a bundled name, or from_optuna(...) and friends
        table, info = load_bundled(data) if isinstance(data, str) else (data, None)
        if pairs or id or roles:
            known = {o.name: o for o in table.roles.objectives}
            fields = {f: getattr(table.roles, f) for f in table.roles.__dataclass_fields__}
            if pairs:
                fields["objectives"] = tuple(
                    Objective(n, d, getattr(known.get(n), "unit", None)) for n, d in pairs)
            fields.update(roles)
            if id:
                fields["id"] = id
            table = build_eval_table(table.frame, Roles(**fields))
        return table, info, data if isinstance(data, str) else "table"
    if not isinstance(data, pd.DataFrame):
        raise InvalidInputError("give a pandas DataFrame, a bundled dataset's name or a table "
                                "from copa_dash.from_optuna / from_mlflow / from_lm_eval, not "
                                f"a {type(data).__name__}")
    frame = data
    if id is None and not (isinstance(data.index, pd.RangeIndex) and data.index.name is None):
        id = data.index.name or "id"
        if id in data.columns:
            raise InvalidInputError(f"the index would become the id column {id!r}, which the "
                                    "table already has: give id='COLUMN'")
        frame = data.reset_index(names=id)
        frame[id] = frame[id].astype(str)
    # the rules a file is read by: '61.1M', 'nan %', failed rows, zero times (data/io.py)
    read = read_frame_report(frame)
    guessed = guessed_table(read, id_column=id, objectives=pairs, single=roles, how="python")
    return guessed.table, None, "table"


def _preferences(table, info, *, explicit: bool, focus, alpha, weights, p, method, population):
    """The preferences ``copa-dash select`` builds from the same options."""
    view = info.default_view if info is not None else None
    objectives, directions = list(table.objective_names), list(table.directions)
    if view is not None and not explicit:
        chosen = [o for o in view.objectives if o in objectives] or objectives
        directions = [directions[objectives.index(o)] for o in chosen]
        objectives = chosen
    first = None
    if info is None and not explicit and not _names(focus) and weights is None:
        first = first_view(table)  # the page's default view of an upload, as the CLI
    focus = _names(focus) or (tuple(view.focus) if view is not None and not explicit else
                              first.focus if first is not None else ())
    given_alpha = alpha is not None
    alpha = alpha if given_alpha else (view.alpha if view is not None else 0.5)
    p = check_p(p) if p is not None else (view.p if view is not None else math.inf)
    vector = None
    if weights is not None:
        if _names(focus) and focus != (tuple(view.focus) if view is not None else ()) \
                or given_alpha:
            raise InvalidInputError("give either weights or focus/alpha, not both")
        unknown = [n for n in weights if n not in objectives]
        if unknown:
            raise InvalidInputError(f"weights name {', '.join(map(repr, unknown))}; "
                                    f"objectives: {', '.join(objectives)}")
        vector = tuple(float(weights.get(n, 0.0)) for n in objectives)
        focus = ()
    return selection.Preferences(objectives=tuple(objectives), directions=tuple(directions),
                                 focus=focus, alpha=float(alpha), weights=vector, p=p,
                                 method=method, population=population)


def _first_view_said(table, info, objectives, focus, weights) -> str:
    """The first view's description when :func:`_preferences` used it, else ''."""
    if info is None and not objectives and not _names(focus) and weights is None:
        # and the columns its guess left out for being another's rescaled twin (the page's
        # and the CLI's note, data/twin_columns.py)
        return ". ".join(n for n in (first_view(table).describe("notebook"), left_out_twins_note(
            table.frame, table.roles.task, table.roles.objectives)) if n)
    return ""


def _tasks_said(table, problem, what: str) -> str:
    """The task note for the rows ``problem`` ranks (the command line's rows), or ""."""
    span = task_span(table, problem.eligible_rows)
    return span.sentence(what) if span is not None else ""


def _row_filter(table, info, where, isin, all_rows) -> RowFilter:
    columns = list(table.frame.columns)
    where = [where] if isinstance(where, str) else list(where or ())
    row_filter = filter_from_where(where, columns)
    sets = {}
    if isin:
        texts = [f"{c}={'|'.join(map(str, v))}" for c, v in dict(isin).items()]
        sets = value_sets_from_in(texts, columns)
    view = info.default_view if info is not None else None
    if view is not None and view.filters and not all_rows:
        defaults = filter_from_view(view.filters)
        return RowFilter(conditions=row_filter.conditions, ranges=defaults.ranges,
                         sets={**defaults.sets, **sets})
    return RowFilter(conditions=row_filter.conditions, sets=sets)


def _problem(data, objectives, id, *, focus=None, alpha=None, weights=None, p=None,
             method="copa", where=(), isin=None, all_rows=False, population="all"):
    table, info, name = _table(data, objectives, id)
    prefs = _preferences(table, info, explicit=bool(objectives), focus=focus, alpha=alpha,
                         weights=weights, p=p, method=method, population=population)
    row_filter = _row_filter(table, info, where, isin, all_rows)
    return selection.build_problem(table, prefs, row_filter), table, info, name


# --- results -------------------------------------------------------------------------------

def _html(title: str, lines, frame: pd.DataFrame | None = None, max_rows: int = 10) -> str:
    """A result's HTML: an escaped title and lines, then the head of its table (escaped by
    pandas)."""
    body = "".join(f"<div>{escape(str(line))}</div>" for line in lines)
    table = ""
    if frame is not None:
        table = frame.head(max_rows).to_html(escape=True, float_format=lambda v: f"{v:.4g}")
        if len(frame) > max_rows:
            table += f"<div><em>{len(frame) - max_rows:,} more rows in .table</em></div>"
    return f"<div><strong>{escape(title)}</strong>{body}{table}</div>"


def _ranked_table(problem, order, scores) -> pd.DataFrame:
    names = problem.preferences.objectives
    data = {"rank": np.arange(1, len(order) + 1), "criterion": scores[order]}
    for k, name in enumerate(names):
        data[name] = problem.raw[order, k]
    for k, name in enumerate(names):
        data[f"u_{name}"] = problem.u[order, k]
    for k, name in enumerate(names):
        data[f"top%_{name}"] = 100.0 * problem.u[order, k]
    frame = pd.DataFrame(data, index=pd.Index([str(i) for i in problem.ids[order]], name="id"))
    return frame


@dataclass(frozen=True)
class Ranking:
    """Eligible rows, best first: ``.table`` has rank, criterion, the raw objectives, u and
    top-x% per objective (index: the ids); ``.pick`` is the first id."""

    table: pd.DataFrame
    preferences: selection.Preferences
    n_missing: int = 0
    view: str = ""  # which default view was used, when one was (the page's for an upload)
    #: when the ranked rows come from several tasks, the sentence the pages and the command
    #: line say beside the answer (services/task_span.py); empty for one task
    tasks: str = ""

    @property
    def pick(self) -> str:
        return str(self.table.index[0])

    def _lines(self) -> list[str]:
        prefs = self.preferences
        how = (f"weights {dict(zip(prefs.objectives, prefs.weight_vector().round(4)))}"
               if prefs.weights is not None or not prefs.focus else
               f"focus {', '.join(prefs.focus)}, alpha {prefs.alpha:g}")
        p = format_p(prefs.p)
        lines = [f"{prefs.method} with {how}, p = {p}; {len(self.table):,} rows ranked"]
        if self.n_missing:
            lines.append(rows_left_out_note(self.n_missing))
        if self.view:
            lines.append(f"view: {self.view}")
        if self.tasks:
            lines.append(self.tasks)
        return lines

    def _repr_html_(self) -> str:
        return _html(f"Ranking: best is {self.pick}", self._lines(), self.table)


@dataclass(frozen=True)
class Selection(Ranking):
    """The selected row: ``.pick`` (its id), ``.index`` (its position in the table),
    ``.score``, ``.u`` and ``.values`` per objective, and the whole ranking in ``.table``."""

    index: int = -1

    @property
    def score(self) -> float:
        return float(self.table["criterion"].iloc[0])

    @property
    def u(self) -> dict:
        return {n: float(self.table[f"u_{n}"].iloc[0]) for n in self.preferences.objectives}

    @property
    def values(self) -> dict:
        return {n: float(self.table[n].iloc[0]) for n in self.preferences.objectives}

    def _repr_html_(self) -> str:
        lines = self._lines() + [
            f"{n}: {self.values[n]:.4g} (top {100 * self.u[n]:.1f}%)"
            for n in self.preferences.objectives]
        return _html(f"COPA pick: {self.pick}" if self.preferences.method == "copa"
                     else f"{self.preferences.method} pick: {self.pick}", lines, self.table)


@compile_later
def select(data, objectives=None, *, id=None, focus=None, alpha=None, weights=None, p=None,
           method="copa", where=(), isin=None, all_rows=False, population="all") -> Selection:
    """The row COPA (or a baseline ``method``) selects, as ``copa-dash select``.

    Parameters
    ----------
    data : DataFrame or str
        A table (ids in the index or the column ``id``) or a bundled dataset's name.
    objectives : dict or list
        ``{"acc": "max", "co2": "min"}``; with a bundled name, default its view's.
    focus, alpha : str or list, float
        The focus objective(s) get ``alpha``, the others share ``1 - alpha``.
    weights : dict, optional
        One weight per objective instead (``{"acc": 2, "co2": 1}``, normalised).
    p : float or "inf"
    method : {"copa", "sum", "saw", "ahp", "delta", "norm", "maxnorm", "pnorm"}
    where : str or list of str
        Constraints ``"COL>=X"`` (``< <= > >= == !=``); ``isin`` = ``{"COL": [values]}``.
    all_rows : bool
        With a bundled name: drop the default view's filters.
    population : {"all", "filtered"}
        Rows the CDF (u) is computed over.

    Raises
    ------
    InvalidInputError
        With the message the command line prints.
    """
    problem, table, info, _ = _problem(data, objectives, id, focus=focus, alpha=alpha,
                                       weights=weights, p=p, method=method, where=where,
                                       isin=isin, all_rows=all_rows, population=population)
    order = selection.ranking(problem)
    position = selection.select(problem)
    if order[0] != position:         # the ranking breaks ties as select does; keep the pick first
        order = np.concatenate([[position], order[order != position]])
    frame = _ranked_table(problem, order, selection.scores(problem))
    return Selection(table=frame, preferences=problem.preferences,
                     n_missing=problem.n_missing, index=int(problem.rows[position]),
                     view=_first_view_said(table, info, objectives, focus, weights),
                     tasks=_tasks_said(table, problem, "pick"))


@compile_later
def rank(data, objectives=None, *, id=None, top=None, focus=None, alpha=None, weights=None,
         p=None, method="copa", where=(), isin=None, all_rows=False,
         population="all") -> Ranking:
    """All eligible rows, best first, as ``copa-dash rank`` (``top``: only the best N)."""
    problem, table, info, _ = _problem(data, objectives, id, focus=focus, alpha=alpha,
                                       weights=weights, p=p, method=method, where=where,
                                       isin=isin, all_rows=all_rows, population=population)
    order = selection.ranking(problem)
    if top is not None:
        order = order[:top]
    return Ranking(table=_ranked_table(problem, order, selection.scores(problem)),
                   preferences=problem.preferences, n_missing=problem.n_missing,
                   view=_first_view_said(table, info, objectives, focus, weights),
                   tasks=_tasks_said(table, problem, "rank"))


@dataclass(frozen=True)
class Sweep:
    """The rows selected as alpha sweeps [0, 1]: ``.table`` (id, alpha_min, alpha_max),
    sorted by alpha_min, and ``.pick_at(alpha)``."""

    table: pd.DataFrame
    alphas: np.ndarray = field(repr=False)
    selected: tuple = field(repr=False)

    def pick_at(self, alpha: float) -> str:
        """The id selected at the grid alpha nearest ``alpha``."""
        return self.selected[int(np.argmin(np.abs(self.alphas - alpha)))]

    def _repr_html_(self) -> str:
        return _html(f"Alpha sweep: {len(self.table)} rows selected somewhere",
                     [f"{len(self.alphas):,} alphas in [0, 1]"], self.table, max_rows=20)


@compile_later
def sweep(data, objectives=None, *, id=None, focus=None, alpha=None, p=None, alphas=10_000,
          where=(), isin=None, all_rows=False, population="all") -> Sweep:
    """The alpha sweep, as ``copa-dash sweep``."""
    problem, _, _, _ = _problem(data, objectives, id, focus=focus, alpha=alpha, p=p,
                                where=where, isin=isin, all_rows=all_rows,
                                population=population)
    result = selection.sweep(problem, n_alphas=alphas)
    frame = pd.DataFrame({"id": [str(problem.ids[r]) for r in result.rows],
                          "alpha_min": result.alpha_min, "alpha_max": result.alpha_max})
    frame = frame.sort_values("alpha_min", kind="stable").reset_index(drop=True)
    return Sweep(table=frame, alphas=np.asarray(result.alphas),
                 selected=tuple(str(problem.ids[s]) for s in result.selected))


@dataclass(frozen=True)
class Front:
    """The non-dominated rows: ``.ids``, ``.table`` (their raw values) and ``.mask`` (a
    boolean Series over every scored row)."""

    ids: list
    table: pd.DataFrame
    mask: pd.Series

    def _repr_html_(self) -> str:
        return _html(f"Pareto front: {len(self.ids)} of {len(self.mask)} rows", [], self.table)


@compile_later
def front(data, objectives=None, *, id=None, where=(), isin=None, all_rows=False) -> Front:
    """The non-dominated rows among those passing the constraints, as ``copa-dash front``."""
    problem, _, _, _ = _problem(data, objectives, id, where=where, isin=isin,
                                all_rows=all_rows)
    mask = selection.front_mask(problem)
    ids = [str(problem.ids[i]) for i in np.flatnonzero(mask)]
    index = pd.Index([str(i) for i in problem.ids], name="id")
    raw = pd.DataFrame(problem.raw, index=index, columns=list(problem.preferences.objectives))
    return Front(ids=ids, table=raw[mask], mask=pd.Series(mask, index=index, name="on_front"))


@dataclass(frozen=True)
class Hypervolume:
    """``.value`` and the reference point ``.ref`` (raw units)."""

    value: float
    ref: tuple[float, ...]
    objectives: tuple[str, ...]

    def __float__(self) -> float:
        return self.value

    def _repr_html_(self) -> str:
        return _html(f"Hypervolume {self.value:.6g}",
                     [f"reference point {dict(zip(self.objectives, self.ref))}"])


@compile_later
def hypervolume(data, objectives=None, *, id=None, ref=None, where=(), isin=None,
                all_rows=False) -> Hypervolume:
    """Exact hypervolume of the rows, as ``copa-dash hypervolume`` (default reference: the
    nadir plus 10% of each objective's range)."""
    problem, _, _, _ = _problem(data, objectives, id, where=where, isin=isin,
                                all_rows=all_rows)
    directions = list(problem.preferences.directions)
    points = problem.raw[problem.eligible]
    ref = default_reference_point(points, directions) if ref is None else \
        [float(v) for v in ref]
    return Hypervolume(value=float(hv(points, ref, directions=directions)),
                       ref=tuple(float(r) for r in ref),
                       objectives=problem.preferences.objectives)


# --- systems -------------------------------------------------------------------------------

def _systems_table(data, objectives, id, system, seed, config):
    table, info, _name = _table(data, objectives, id, system=system, seed=seed, config=config)
    names = None
    if not objectives and info is not None and info.default_view is not None:
        chosen = [n for n in info.default_view.objectives if n in table.objective_names]
        names = chosen if len(chosen) >= 2 else None
    return table, names


@dataclass(frozen=True)
class Indicators:
    """Per-system HV, ONVG, ONVG^, ONVGR, UD_bar, OS and radar area (``.table``, index the
    systems; NaN where undefined, ``.reasons`` says why)."""

    table: pd.DataFrame
    reasons: dict

    def _repr_html_(self) -> str:
        lines = [f"{s}: {k} undefined: {r}" for s, why in self.reasons.items()
                 for k, r in why.items()]
        return _html(f"Indicators of {len(self.table)} systems", lines[:10], self.table)


@compile_later
def indicators(data, objectives=None, *, id=None, system=None, normalize="minmax",
               sigma=0.1) -> Indicators:
    """Per-system indicators, as ``copa-dash indicators``."""
    table, names = _systems_table(data, objectives, id, system, None, None)
    view = systems_service.systems_view(table, objectives=names, normalize=normalize,
                                        sigma=sigma)
    records = view.records()
    columns = ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area")
    frame = pd.DataFrame([{k: r[k] for k in columns} for r in records],
                         index=pd.Index([r["system"] for r in records], name="system"))
    return Indicators(table=frame, reasons={r["system"]: r["reasons"] for r in records
                                            if r["reasons"]})


@dataclass(frozen=True)
class Significance:
    """The permutation test of a Pareto improvement: ``.p_value``, ``.delta``,
    ``.verdict`` (in words), ``.permutations``, ``.rng_seed``, ``.ref`` and ``.test`` (the
    core's full result, with the null distribution)."""

    p_value: float
    delta: float
    delta_relative: float
    permutations: int
    rng_seed: int
    ref: tuple
    verdict: str
    baseline: tuple
    candidate: tuple
    test: object = field(repr=False)

    def _repr_html_(self) -> str:
        return _html(f"p = {self.p_value:.4g} ({self.permutations:,} permutations, seed "
                     f"{self.rng_seed})",
                     [self.verdict, f"Delta HV = {self.delta:+.6g}",
                      f"reference point {self.ref}"])


@compile_later
def significance(data, objectives=None, *, baseline, candidate, id=None, system=None,
                 seed=None, config=None, permutations=systems_service.DEFAULT_PERMUTATIONS,
                 rng_seed=0, ref_rule="range") -> Significance:
    """Is the candidate systems' front better than the baseline's beyond seed noise?
    As ``copa-dash significance``."""
    table, names = _systems_table(data, objectives, id, system, seed, config)
    view = systems_service.significance_test(
        table, baseline=baseline, candidate=candidate, objectives=names,
        n_permutations=permutations, rng_seed=rng_seed, ref_rule=ref_rule)
    test = view.test
    return Significance(
        p_value=float(test.p_value), delta=float(test.delta),
        delta_relative=float(test.delta_relative), permutations=int(test.n_permutations),
        rng_seed=test.seed, ref=tuple(float(v) for v in test.ref),
        verdict=verdict(test, view.baseline, view.candidate), baseline=view.baseline,
        candidate=view.candidate, test=test)


# --- the report and the explorer -----------------------------------------------------------

def _opened(data, objectives, id, **roles):
    table, info, name = _table(data, objectives, id, **roles)
    if info is not None:
        return replace(open_dataset(name), table=table)
    return opened_table(table, name="notebook table",
                        source="a pandas DataFrame in a notebook")


@compile_later
def report(data, path, objectives=None, *, id=None, kind="decision", focus=None, alpha=None,
           weights=None, p=None, where=(), isin=None, all_rows=False, population="all",
           answers=(), share_base="", generated_at=None, **systems_options) -> Path:
    """Write the decision report (``kind="decision"``, the view ``select`` answers with the
    same options) or the systems report (``kind="systems"``; ``systems_options`` as
    :func:`indicators` and :func:`significance`) to ``path`` (.html or .pdf); returns it.

    Raises
    ------
    InvalidInputError
        An unknown kind or extension, or what the analysis raises.
    """
    path = Path(path)
    fmt = reports.check_format(path.suffix)
    if kind == "systems":
        roles = {k: systems_options.pop(k, None) for k in ("system", "seed", "config")}
        opened = _opened(data, objectives, id, **roles)
        table, names = opened.table, None
        if not objectives and opened.default_view is not None:
            chosen = [n for n in opened.default_view.objectives if n in table.objective_names]
            names = chosen if len(chosen) >= 2 else None
        data_bytes = reports.systems_report(opened, fmt=fmt, generated_at=generated_at,
                                            share_base=share_base, objectives=names,
                                            **systems_options)
    elif kind == "decision":
        opened = _opened(data, objectives, id)
        problem, table, info, _ = _problem(
            data, objectives, id, focus=focus, alpha=alpha, weights=weights, p=p,
            where=where, isin=isin, all_rows=all_rows, population=population)
        prefs, constraints = problem.preferences, _row_filter(table, info, where, isin,
                                                              all_rows)
        weights_pairs = tuple(zip(prefs.objectives, prefs.weights)) if prefs.weights else ()
        if not prefs.focus and not weights_pairs:
            weights_pairs = tuple((n, 1.0) for n in prefs.objectives)
        view = views.DecisionView(
            dataset=opened.ref, objectives=tuple(zip(prefs.objectives, prefs.directions)),
            focus=prefs.focus, alpha=prefs.alpha, weights=weights_pairs, p=prefs.p,
            population=population,
            ranges=tuple((c, lo, hi) for c, (lo, hi) in constraints.ranges.items()),
            sets=tuple((c, tuple(map(views._text, v))) for c, v in constraints.sets.items()),
            conditions=constraints.conditions, answers=tuple(answers),
            use_default_filters=False)
        data_bytes = reports.decision_report(opened, view, fmt=fmt, generated_at=generated_at,
                                             share_base=share_base, output_name=path.name)
    else:
        raise InvalidInputError(f"kind must be 'decision' or 'systems', not {kind!r}")
    path.write_bytes(data_bytes)
    return path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Explorer:
    """A running explorer: ``.url`` opens the view, ``.app`` is the Dash app."""

    url: str
    app: object = field(repr=False)

    def _repr_html_(self) -> str:
        return f'<div>copa-dash explorer at <a href="{escape(self.url)}">{escape(self.url)}</a></div>'


def explore(data, objectives=None, *, id=None, focus=None, alpha=None, p=None, port=None,
            height=900, mode="inline") -> Explorer:
    """Show the explorer on ``data`` in the notebook (Dash's ``jupyter_mode="inline"``).

    The DataFrame stays in this kernel: the dashboard runs in a thread of the kernel and
    finds the table in memory under a ``notebook-...`` reference; nothing is uploaded or
    written. ``focus``, ``alpha`` and ``p`` set the view it opens with; ``port`` defaults
    to a free one.
    """
    table, _, name = _table(data, objectives, id)
    names = list(table.objective_names)
    if isinstance(data, str):
        opened = _opened(data, objectives, id)
        ref = name
    else:
        focus_names = _names(focus) or first_view(table).focus  # as the page opens an upload
        default = DefaultView(objectives=tuple(names), focus=focus_names,
                              alpha=0.5 if alpha is None else float(alpha),
                              p=math.inf if p is None else check_p(p))
        opened = opened_table(table, name="notebook", default_view=default,
                              source="a pandas DataFrame in this notebook")
        opened = replace(opened, ref="notebook-" + opened.cache_id.removeprefix("table-")[:16])
        ref = keep_in_memory(opened)
    view = views.resolve(views.DecisionView(ref, focus=_names(focus), alpha=alpha, p=p),
                         opened.table, opened.default_view)
    shown, _ = views.explore_view(view)
    port = port or _free_port()
    app = create_app()
    target = link(shown)

    @app.server.before_request
    def _open_the_view():                     # the inline frame loads "/": show the table
        if request.path == "/" and not request.query_string:
            return redirect(target)
        return None

    app.run(jupyter_mode=mode, port=port, jupyter_height=height)
    return Explorer(url=f"http://127.0.0.1:{port}{target}", app=app)
