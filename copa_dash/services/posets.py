"""Partial rankings of methods across tasks, and their ufg depth, for the CLI and the page.

A long table has one row per (method, task) (or several, e.g. seeds: they are averaged)
and criterion columns. :func:`poset_table` reduces it to one value per method, task and
criterion; :func:`depth_view` builds the dominance poset of the methods on every task
(:func:`copa_dash.core.posets.task_posets`) and the ufg depth of each
(:func:`copa_dash.core.posets.ufg_depth`), memoised per dataset in the shared cache.
The helpers below turn a :class:`DepthView` into what the page and the CLI show: depth per
task, the most central and most outlying tasks, Hasse layouts, the beats matrix and what
the k most central posets agree on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core import posets as core
from ..core.brief import brief_list
from ..core.errors import InvalidInputError
from ..core.posets import DepthCancelled  # noqa: F401  (the pages catch it from here)

TIES = ("drop", "incomparable")
MISSING = ("drop", "worst")
#: "auto" (the default): exact when its predicted work is within the budget, else approximate
MODES = ("auto", "exact", "approx")
#: the most sets of posets an automatic depth lets the exact enumeration examine (an upper
#: bound, :func:`copa_dash.core.posets.exact_depth_work`): 2**21, a few seconds at most here
#: (2**19 took 1.1 s); Settings.depth_exact_budget (COPA_DEPTH_EXACT_BUDGET) overrides it
DEFAULT_EXACT_BUDGET = 2 ** 21


@dataclass(frozen=True)
class PosetTable:
    """One value per (task, method, criterion); NaN where the table has none."""

    methods: tuple[str, ...]          # (n,) in order of first appearance
    tasks: tuple[str, ...]            # (T,) in order of first appearance
    criteria: tuple[str, ...]
    directions: tuple[str, ...]
    values: np.ndarray                # (T, n, C) float64
    present: np.ndarray               # (T, n) bool: the table has a row for the pair
    notes: tuple[str, ...]


@dataclass(frozen=True)
class DepthView:
    """The task posets of a long table and their ufg depth (one entry per kept task)."""

    methods: tuple[str, ...]
    criteria: tuple[str, ...]
    directions: tuple[str, ...]
    tasks: tuple[str, ...]            # kept tasks, table order
    relations: np.ndarray             # (T, n, n) bool, [t, i, j]: i above j on task t
    depths: np.ndarray                # (T,) depth of each kept task's poset
    poset_index: np.ndarray           # (T,) which distinct poset each task has
    distinct: np.ndarray              # (D, n, n) distinct posets, first appearance
    distinct_depths: np.ndarray       # (D,)
    counts: np.ndarray                # (D,) tasks per distinct poset
    n_ufg_sets: int
    exact: bool
    error_bound: float
    confidence: float                 # 1.0: the bound is sure; else its probability
    stop_reason: str
    seconds: float
    ties: str
    missing: str
    tied_tasks: tuple[str, ...]       # tasks where two methods are equal on every criterion
    tied_pairs: tuple[tuple[str, str, str], ...]   # (task, method, method)
    dropped: tuple[tuple[str, str], ...]           # (task, reason)
    notes: tuple[str, ...]


class NotLongTable(InvalidInputError):
    """The table has no method column or no task column (a wide leaderboard): the page
    answers with the shipped long example beside the message."""


def long_columns(table, *, method: str | None = None, task: str | None = None) -> tuple[str, str]:
    """The method and task columns: the given ones, else the table's system and task roles.

    Raises
    ------
    NotLongTable
        If there is no method column or no task column (an :class:`InvalidInputError`).
    InvalidInputError
        If either is unknown or they are the same column.
    """
    method = method or table.roles.system
    task = task or table.roles.task
    if not method or not task:
        raise NotLongTable(
            "Partial rankings need a long table with a method (system) column and a task "
            f"column; this dataset has {'no method column' if not method else 'no task column'}: "
            "choose them")
    for name, column in (("method", method), ("task", task)):
        if column not in table.frame.columns:
            raise InvalidInputError(f"the {name} column {column!r} is not in the table")
    if method == task:
        raise InvalidInputError("the method and task columns must differ")
    return method, task


def default_criteria(table, default_view=None) -> tuple[tuple[str, str], ...]:
    """The criteria a dataset opens with: its default view's objectives, else all of them,
    with the table's directions."""
    view = default_view
    names = list(table.objective_names)
    chosen = [n for n in (view.objectives if view is not None else ()) if n in names] or names
    return tuple((n, table.objective(n).direction) for n in chosen)


def poset_table(frame: pd.DataFrame, *, method: str, task: str,
                criteria: Sequence[tuple[str, str]]) -> PosetTable:
    """Reduce a long table to one value per (task, method, criterion).

    Rows repeating a (method, task) pair are averaged (NaN left out of the mean).

    Raises
    ------
    InvalidInputError
        A missing column, a criterion that is not numeric, a direction other than
        min/max, no criterion, or fewer than 2 methods.
    """
    if not criteria:
        raise InvalidInputError("choose at least one criterion")
    names = [str(c) for c, _ in criteria]
    directions = [str(d).lower() for _, d in criteria]
    for name, direction in zip(names, directions):
        if direction not in ("min", "max"):
            raise InvalidInputError(f"criterion {name!r}: the direction must be min or max, "
                                    f"not {direction!r}")
    if len(set(names)) != len(names):
        raise InvalidInputError("each criterion may be given once")
    for column in [method, task, *names]:
        if column not in frame.columns:
            raise InvalidInputError(f"the column {column!r} is not in the table")
    if method == task or {method, task} & set(names):
        raise InvalidInputError("the method, task and criterion columns must all differ")
    sub = pd.DataFrame({"method": frame[method].astype(str), "task": frame[task].astype(str)})
    for name in names:
        numbers = pd.to_numeric(frame[name], errors="coerce")
        bad = numbers.isna() & frame[name].notna()
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise InvalidInputError(f"criterion {name!r} must be numeric, but row {row} holds "
                                    f"{frame[name].iloc[row]!r}")
        sub[name] = numbers.astype(float).replace([np.inf, -np.inf], np.nan)
    sub = sub[frame[method].notna().to_numpy() & frame[task].notna().to_numpy()]
    methods = tuple(dict.fromkeys(sub["method"]))
    tasks = tuple(dict.fromkeys(sub["task"]))
    if len(methods) < 2:
        raise InvalidInputError(f"partial rankings need at least 2 methods; {method!r} has "
                                f"{len(methods)}")
    means = sub.groupby(["task", "method"], sort=False)[names].mean()
    index = pd.MultiIndex.from_product([tasks, methods], names=["task", "method"])
    values = means.reindex(index).to_numpy(dtype=float).reshape(len(tasks), len(methods),
                                                                 len(names))
    counts = sub.groupby(["task", "method"], sort=False).size().reindex(index, fill_value=0)
    present = counts.to_numpy().reshape(len(tasks), len(methods)) > 0
    notes = []
    repeated = int((counts.to_numpy() > 1).sum())
    if repeated:
        notes.append(f"{repeated} (method, task) pairs have several rows: each shows the mean "
                     "of its rows.")
    return PosetTable(methods=methods, tasks=tasks, criteria=tuple(names),
                      directions=tuple(directions), values=np.ascontiguousarray(values),
                      present=present, notes=tuple(notes))


def _fill_worst(values: np.ndarray, directions: Sequence[str]) -> np.ndarray:
    """NaN cells -> a value worse than every observed one of that criterion."""
    out = values.copy()
    for c, direction in enumerate(directions):
        column = out[..., c]
        finite = column[np.isfinite(column)]
        if finite.size == 0:
            continue
        span = float(finite.max() - finite.min()) or 1.0
        worst = finite.max() + span if direction == "min" else finite.min() - span
        column[np.isnan(column)] = worst
    return out


def compute_depth_view(data: PosetTable, *, ties: str = "drop", missing: str = "drop",
                       exact: bool | None = True, tolerance: float = 0.01,
                       exact_budget: int = DEFAULT_EXACT_BUDGET,
                       max_seconds: float | None = None,
                       progress: Callable[[float], object] | None = None,
                       cancel: Callable[[], bool] | None = None,
                       how: str = "page") -> DepthView:
    """Task posets and their ufg depth (no cache).

    ``exact``: True examines every set that can be ufg, False stops within ``tolerance``;
    None (automatic) is exact when :func:`~copa_dash.core.posets.exact_depth_work` of the
    distinct posets is at most ``exact_budget`` and approximate otherwise, and a note says
    which and why; ``how`` ("page" or "cli") chooses whose words that note tells the user to
    insist on exact in (the page's Depth choice, or ``--exact``).

    ``missing``: "drop" leaves out a task where some method has no value on a criterion;
    "worst" counts a missing value as worse than every observed one (a method with no row
    at all still drops the task). Raises InvalidInputError for bad options or when fewer
    than one task remains, and :class:`copa_dash.core.posets.DepthCancelled` on cancel.

    Examples
    --------
    The paper's Example B.2 as a long table (p2 lies in the closure of {p1, p3} too):

    >>> rows = [("SGD", "p1", 2, 2), ("Momentum", "p1", 1, 1), ("Adam", "p1", 0, 3),
    ...         ("SGD", "p2", 2, 2), ("Momentum", "p2", 0, 3), ("Adam", "p2", 1, 1),
    ...         ("SGD", "p3", 2, 2), ("Momentum", "p3", 3, 3), ("Adam", "p3", 1, 1)]
    >>> frame = pd.DataFrame(rows, columns=["opt", "task", "a", "b"])
    >>> data = poset_table(frame, method="opt", task="task", criteria=[("a", "min"), ("b", "min")])
    >>> view = compute_depth_view(data)
    >>> view.tasks, view.depths.round(3).tolist(), view.n_ufg_sets
    (('p1', 'p2', 'p3'), [0.667, 1.0, 0.667], 3)
    """
    if ties not in TIES:
        raise InvalidInputError(f"'ties' must be one of {TIES}, not {ties!r}")
    if missing not in MISSING:
        raise InvalidInputError(f"'missing' must be one of {MISSING}, not {missing!r}")
    values = data.values if missing == "drop" else _fill_worst(data.values, data.directions)
    usable = data.present & ~np.isnan(values).any(axis=2)
    t_idx, m_idx = np.nonzero(usable)
    reasons: dict[int, str] = {}
    for t in np.flatnonzero(~usable.all(axis=1)):
        absent = [data.methods[m] for m in np.flatnonzero(~usable[t])]
        no_row = not data.present[t][~usable[t]].all()
        reasons[int(t)] = ("no row for " if no_row else "missing values for ") + brief_list(absent)
    if t_idx.size == 0:
        raise InvalidInputError("no task has a value for every method on every criterion")
    tp = core.task_posets(values[t_idx, m_idx], list(data.directions), method_index=m_idx,
                          task_index=t_idx, n_methods=len(data.methods), ties=ties,
                          missing="drop")
    tied = {int(t) for t in tp.flagged_ties}
    for t in tp.dropped.tolist():
        reasons.setdefault(int(t), "methods equal on every criterion (tie)" if t in tied
                           else "incomplete")
    if tp.relations.shape[0] == 0:
        listed = [f"{data.tasks[t]}: {r}" for t, r in sorted(reasons.items())]
        more = f"; and {len(listed) - 3:,} more tasks" if len(listed) > 3 else ""
        raise InvalidInputError(
            "no task is left: partial rankings compare every method on each task, and every "
            "task lacks a method or a value. Choose a method column and a task column such "
            f"that each method has a row on each task. What is lacking: {'; '.join(listed[:3])}"
            f"{more}.")
    notes = list(data.notes)
    if exact is None:
        exact, why = _automatic_exact(tp.relations, len(data.methods), exact_budget, how)
        notes.append(why)
    result = core.ufg_depth(tp.relations, exact=exact, tolerance=tolerance,
                            max_seconds=max_seconds, progress=progress, cancel=cancel)
    if reasons:
        notes.append(f"{len(reasons)} of {len(data.tasks)} tasks are left out: " + brief_list(
            (f"{data.tasks[t]} ({r})" for t, r in sorted(reasons.items())), separator="; ",
            more="more") + ".")
    if tied and ties == "incomparable":
        notes.append(f"{len(tied)} tasks have methods equal on every criterion; they are kept "
                     "with those methods incomparable.")
    if result.n_ufg_sets == 0:
        notes.append("No set of observed posets is union-free generic (e.g. every task gives "
                     "the same poset): every depth is 0.")
    confidence = float(getattr(result, "confidence", 1.0))
    if not result.exact:
        sure = "" if confidence >= 1 else f" with probability {confidence:g}"
        notes.append(f"Approximate depths ({result.stop_reason}): each is within "
                     f"{result.error_bound:.3g} of the exact value{sure}.")
    return DepthView(
        methods=data.methods, criteria=data.criteria, directions=data.directions,
        tasks=tuple(data.tasks[t] for t in tp.task_ids.tolist()),
        relations=tp.relations, depths=np.asarray(result.observed_depths, dtype=float),
        poset_index=result.inverse, distinct=result.posets,
        distinct_depths=np.asarray(result.depths, dtype=float), counts=result.counts,
        n_ufg_sets=int(result.n_ufg_sets), exact=bool(result.exact),
        error_bound=float(result.error_bound), confidence=confidence, stop_reason=result.stop_reason,
        seconds=float(result.seconds), ties=ties, missing=missing,
        tied_tasks=tuple(data.tasks[t] for t in sorted(tied)),
        tied_pairs=tuple((data.tasks[t], data.methods[i], data.methods[j])
                         for t, i, j in tp.tied_pairs.tolist()),
        dropped=tuple((data.tasks[t], r) for t, r in sorted(reasons.items())),
        notes=tuple(notes))


_INSIST = {"page": "Choose 'exact' under Depth to insist.", "cli": "Give --exact to insist."}


def _automatic_exact(relations: np.ndarray, n_methods: int, budget: int,
                     how: str = "page") -> tuple[bool, str]:
    """Whether an automatic depth is exact, and the note that says why, with the way to
    insist on exact in the words of ``how`` (``"page"`` or ``"cli"``: each its own)."""
    n_distinct = core.distinct_posets(relations).counts.size
    work = core.exact_depth_work(n_distinct, n_methods)
    if work <= budget:
        return True, (f"Exact depth: with {n_distinct} distinct posets it examines at most "
                      f"{work:,} sets, within the budget of {budget:,}.")
    return False, (f"Approximate depth by default: with {n_distinct} distinct posets the exact "
                   f"depth could have to examine {work:.3g} sets (budget {budget:,}), which can "
                   f"take minutes or more. {_INSIST[how]}")


TASK_LABEL_SEP = " · "


def task_labels(frame: pd.DataFrame, task: str, names: str | None) -> dict[str, str]:
    """``{task value: "value · name"}`` from the column ``names`` that names each task.

    DeepOBS calls its test problems P1..P8 and keeps their names in ``problem_name``, so the
    task ``P3`` is shown as ``P3 · fmnist_2c2d``. A task with no name keeps its value; a task
    with several names (the column does not name tasks) shows them all, joined by " / ".
    Empty when ``names`` is None or not a column of ``frame``.

    Examples
    --------
    >>> frame = pd.DataFrame({"problem": ["P1", "P1", "P2"], "name": ["quad", "quad", None]})
    >>> task_labels(frame, "problem", "name")
    {'P1': 'P1 · quad', 'P2': 'P2'}
    """
    if not names or names not in frame.columns or names == task:
        return {}
    pairs = pd.DataFrame({"task": frame[task], "name": frame[names]}).dropna(subset=["task"])
    labels = {}
    for value, group in pairs.groupby(pairs["task"].astype(str), sort=False):
        found = [str(n) for n in dict.fromkeys(group["name"].dropna()) if str(n).strip()]
        labels[value] = value + (TASK_LABEL_SEP + " / ".join(found) if found else "")
    return labels


def _depth_key(table, *, criteria, method, task, ties, missing, exact, tolerance, exact_budget,
               task_names):
    """The method and task columns, the criteria, the task labels and the cache key's
    arguments of :func:`depth_view` (shared with :func:`cached_depth_view`)."""
    method, task = long_columns(table, method=method, task=task)
    criteria = tuple((str(c), str(d)) for c, d in criteria)
    labels = task_labels(table.frame, task, task_names)
    arguments = {"method": method, "task": task, "criteria": criteria, "ties": ties,
                 "missing": missing, "exact": "auto" if exact is None else bool(exact),
                 "tolerance": None if exact else float(tolerance),
                 "budget": int(exact_budget) if exact is None else None,
                 "task_names": task_names if labels else None}
    return method, task, criteria, labels, arguments


def cached_depth_view(table, *, criteria: Sequence[tuple[str, str]],
                      method: str | None = None, task: str | None = None, ties: str = "drop",
                      missing: str = "drop", exact: bool | None = True, tolerance: float = 0.01,
                      exact_budget: int = DEFAULT_EXACT_BUDGET, dataset_id: str = "",
                      cache=None, task_names: str | None = None) -> DepthView | None:
    """What :func:`depth_view` with these arguments has stored, or None when nothing is
    stored (or there is no cache): nothing is computed. The Posets page draws a stored view
    at once and starts its background job only when this is None.

    Raises
    ------
    NotLongTable, InvalidInputError
        As :func:`depth_view` (before any lookup).
    """
    *_, arguments = _depth_key(
        table, criteria=criteria, method=method, task=task, ties=ties, missing=missing,
        exact=exact, tolerance=tolerance, exact_budget=exact_budget, task_names=task_names)
    if cache is None or not dataset_id:
        return None
    return cache.peek("posets.depth_view", dataset_id, arguments)


def depth_view(table, *, criteria: Sequence[tuple[str, str]],
               method: str | None = None, task: str | None = None, ties: str = "drop",
               missing: str = "drop", exact: bool | None = True, tolerance: float = 0.01,
               exact_budget: int = DEFAULT_EXACT_BUDGET,
               progress: Callable[[float], object] | None = None,
               cancel: Callable[[], bool] | None = None,
               dataset_id: str = "", cache=None, task_names: str | None = None) -> DepthView:
    """:func:`compute_depth_view` on an EvalTable, memoised per dataset when ``cache`` is
    given (progress and cancel are not part of the key; a cancelled run stores nothing).

    ``criteria``: (column, "min"|"max") pairs (see :func:`default_criteria`);
    ``method``/``task`` default to the table's system and task roles. ``task_names``: a
    column naming each task; every task in the view (tasks, notes, ties) is then called
    ``"value · name"`` (:func:`task_labels`), as the page shows it; the CLI keeps the values.
    """
    method, task, criteria, labels, arguments = _depth_key(
        table, criteria=criteria, method=method, task=task, ties=ties, missing=missing,
        exact=exact, tolerance=tolerance, exact_budget=exact_budget, task_names=task_names)

    def compute() -> DepthView:
        frame = table.frame
        if labels:
            named = frame[task].astype(str).map(labels).where(frame[task].notna())
            frame = frame.assign(**{task: named})
        data = poset_table(frame, method=method, task=task, criteria=criteria)
        return compute_depth_view(data, ties=ties, missing=missing, exact=exact,
                                  tolerance=tolerance, exact_budget=exact_budget,
                                  progress=progress, cancel=cancel)

    if cache is None or not dataset_id:
        return compute()
    return cache.memoize("posets.depth_view", dataset_id, arguments, compute)


def depth_records(view: DepthView) -> list[dict]:
    """``[{"task", "depth"}, ...]`` in table order (the CLI's ``tasks``)."""
    return [{"task": t, "depth": float(d)} for t, d in zip(view.tasks, view.depths)]


def depth_order(view: DepthView) -> list[int]:
    """Kept task positions, deepest (most central) first; equal depths keep table order."""
    return np.argsort(-view.depths, kind="stable").tolist()


def extreme_tasks(view: DepthView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The most central tasks (largest depth) and the most outlying ones (smallest)."""
    top, low = view.depths.max(), view.depths.min()
    tol = 1e-12
    return (tuple(t for t, d in zip(view.tasks, view.depths) if d >= top - tol),
            tuple(t for t, d in zip(view.tasks, view.depths) if d <= low + tol))


def equal_depths_sentence(view: DepthView) -> str:
    """When every task has the same depth, what that means, why it happens and what to try,
    in plain words (empty when the depths differ). The page says this in place of naming the
    most central and most outlying tasks, which would then be the same tasks twice.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> rel = np.zeros((2, 3, 3), dtype=bool)
    >>> v = SimpleNamespace(depths=np.zeros(2), relations=rel, criteria=("a", "b", "c"))
    >>> equal_depths_sentence(v)[:75]
    'Every task has the same depth (0.000): no task is more central than another'
    >>> equal_depths_sentence(SimpleNamespace(**{**vars(v), "depths": np.array([0.2, 0.0])}))
    ''
    """
    depths = np.asarray(view.depths, dtype=float)
    if depths.size == 0 or float(depths.max() - depths.min()) > 1e-12:
        return ""
    n_tasks = int(view.relations.shape[0])
    no_order = int((~view.relations.reshape(n_tasks, -1).any(axis=1)).sum())
    if no_order == n_tasks:
        why = (f"on every task no method is better than another on all "
               f"{len(view.criteria)} criteria at once, so the rankings have no order to "
               "compare")
    elif no_order:
        why = (f"on {no_order} of {n_tasks} tasks no method is better than another on all "
               f"{len(view.criteria)} criteria at once, and the others share no pattern "
               "the depth can weigh")
    else:
        why = "the tasks' rankings share no pattern the depth can weigh (e.g. all are alike)"
    return (f"Every task has the same depth ({float(depths[0]):.3f}): no task is more central "
            f"than another. Why: {why}. This is what a criterion with the wrong direction "
            "(min where higher is better) or many criteria (copies of one measure count "
            "twice) do. Try: check each criterion's direction on the Upload page, or tick "
            "fewer criteria under Criteria.")


def within_bound_of_extremes(view: DepthView) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The other tasks an approximate depth cannot tell from the most central and from the
    most outlying: each depth is within ``error_bound`` of its exact value, so a task whose
    depth is within twice the bound of the extreme may be the extreme itself. Empty for an
    exact depth.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> v = SimpleNamespace(exact=False, error_bound=0.006, tasks=("a", "b", "c", "d"),
    ...                     depths=np.array([0.50, 0.045, 0.043, 0.30]))
    >>> within_bound_of_extremes(v)
    ((), ('b',))
    >>> within_bound_of_extremes(SimpleNamespace(**{**vars(v), "exact": True}))
    ((), ())
    """
    if view.exact:
        return (), ()
    reach = 2 * float(view.error_bound) + 1e-12
    top, low = float(view.depths.max()), float(view.depths.min())
    central, outlying = extreme_tasks(view)
    near_top = tuple(t for t, d in zip(view.tasks, view.depths)
                     if d >= top - reach and t not in central)
    near_low = tuple(t for t, d in zip(view.tasks, view.depths)
                     if d <= low + reach and t not in outlying)
    return near_top, near_low


def unsure_extremes_sentence(view: DepthView) -> str:
    """The sentence the page and ``copa-dash depth`` add when an approximate depth cannot
    tell other tasks from the most central or the most outlying (empty when it can, or the
    depth is exact)."""
    near_top, near_low = within_bound_of_extremes(view)
    unsure = [f"{len(near)} other task{'s' if len(near) > 1 else ''} "
              f"({brief_list(near, limit=3)}) {'are' if len(near) > 1 else 'is'} within the "
              f"error bound of the most {which}"
              for which, near in (("central", near_top), ("outlying", near_low)) if near]
    if not unsure:
        return ""
    return (f"Not told apart: {'; '.join(unsure)}, so the approximate depth cannot say which "
            "is the most; only the exact depth can (its cost is said below).")


@dataclass(frozen=True)
class HasseLayout:
    """Where to draw a poset's Hasse diagram: better methods above."""

    methods: tuple[str, ...]
    level: tuple[int, ...]            # 0 = top: nothing above it
    x: tuple[float, ...]              # position within the level, centred on 0
    edges: tuple[tuple[int, int], ...]   # (upper, lower) cover pairs


def hasse_layout(view: DepthView, relation: np.ndarray) -> HasseLayout:
    """Cover pairs of ``relation`` and a layered layout: a method's level is the length of
    the longest chain above it; within a level methods are ordered by the mean position of
    the methods they are covered by (fewer crossings), then by name order."""
    cover = core.cover_relation(relation)
    n = cover.shape[0]
    level = [0] * n
    rel = np.asarray(relation, dtype=bool)
    for j in sorted(range(n), key=lambda j: int(rel[:, j].sum())):
        above = np.flatnonzero(cover[:, j])
        level[j] = max((level[i] + 1 for i in above), default=0)
    x = [0.0] * n
    for lev in range(max(level) + 1):
        members = [j for j in range(n) if level[j] == lev]

        def key(j):
            parents = np.flatnonzero(cover[:, j])
            return (float(np.mean([x[i] for i in parents])) if parents.size else 0.0, j)

        members.sort(key=key)
        for pos, j in enumerate(members):
            x[j] = pos - (len(members) - 1) / 2
    edges = tuple((int(i), int(j)) for i, j in zip(*np.nonzero(cover)))
    return HasseLayout(methods=view.methods, level=tuple(level), x=tuple(x), edges=edges)


def beats(view: DepthView) -> np.ndarray:
    """(n, n) int: on how many kept tasks method i is above method j."""
    return core.beats_matrix(view.relations)


@dataclass(frozen=True)
class AgreementView:
    """What the k most central distinct posets share, in words."""

    k: int
    tasks: tuple[tuple[str, ...], ...]   # the tasks of each of the k posets, deepest first
    depths: tuple[float, ...]
    above: tuple[tuple[str, str], ...]   # (better, worse) in all k
    incomparable: tuple[tuple[str, str], ...]   # incomparable in all k
    undecided: int                       # pairs ordered differently among the k


def agreement(view: DepthView, *, k: int) -> AgreementView:
    """The pairs the k deepest distinct posets order alike (k clipped to [1, D])."""
    k = int(min(max(1, k), view.distinct.shape[0]))
    agreed = core.top_k_agreement(view.distinct, view.distinct_depths, k=k)
    n = len(view.methods)
    names = view.methods
    above = tuple((names[i], names[j]) for i, j in zip(*np.nonzero(agreed.above)))
    incomparable = tuple((names[i], names[j]) for i, j in zip(*np.nonzero(agreed.incomparable))
                         if i < j)
    pairs = n * (n - 1) // 2
    tasks = tuple(tuple(t for t, p in zip(view.tasks, view.poset_index.tolist()) if p == d)
                  for d in agreed.indices.tolist())
    return AgreementView(k=k, tasks=tasks,
                         depths=tuple(float(view.distinct_depths[d]) for d in agreed.indices),
                         above=above, incomparable=incomparable,
                         undecided=pairs - len(above) - len(incomparable))


#: sets of posets the exact enumeration examines a second on this kind of machine (2**19 in
#: 1.1 s on the bundled bbob table, see :func:`copa_dash.core.posets.exact_depth_work`); used
#: only to put the predicted work in time words
EXACT_SETS_PER_SECOND = 2 ** 19 / 1.1


def _duration(seconds: float) -> str:
    """``"about 2 minutes"``, ``"about 75 years"``: a rough time in the largest fitting unit."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600),
                       ("minutes", 60)):
        if seconds >= 2 * size:
            return f"about {seconds / size:,.0f} {unit}"
    return "about a second" if seconds < 1.5 else f"about {seconds:.0f} seconds"


def exact_seconds(view: DepthView, *, budget: int = DEFAULT_EXACT_BUDGET) -> float | None:
    """The predicted upper bound on the exact depth's time in seconds, when its work is past
    ``budget`` (None when exact is quick, or ``view`` is already exact)."""
    if view.exact:
        return None
    work = core.exact_depth_work(len(view.distinct), len(view.methods))
    return None if work <= budget else work / EXACT_SETS_PER_SECOND


def exact_choice_words(seconds: float | None) -> str:
    """The words of the "exact" choice beside its predicted cost: a newcomer clicked
    "exact (can take long)" and started a job the note under it said would run for years.

    >>> exact_choice_words(None)
    'exact (can take long)'
    >>> exact_choice_words(2.4e9)
    'exact: up to about 76 years here, will likely not finish'
    >>> exact_choice_words(600)
    'exact: up to about 10 minutes here'
    """
    if seconds is None:
        return "exact (can take long)"
    late = ", will likely not finish" if seconds > 3600 else ""
    return f"exact: up to {_duration(seconds)} here{late}"


def exact_forecast(view: DepthView, *, budget: int = DEFAULT_EXACT_BUDGET) -> str | None:
    """What choosing the exact depth would cost, in words, when it is past ``budget``
    (None when exact is quick, or ``view`` is already exact).

    The work is :func:`copa_dash.core.posets.exact_depth_work` of the view's distinct posets
    and methods -- an upper bound known before starting -- put in time at
    :data:`EXACT_SETS_PER_SECOND`; the approximate view's own error bound is quoted beside it.
    """
    seconds = exact_seconds(view, budget=budget)
    if seconds is None:
        return None
    work = core.exact_depth_work(len(view.distinct), len(view.methods))
    power = int(np.floor(np.log10(work)))
    verdict = ("so it will likely not finish" if seconds > 3600
               else "which you can wait for if you need it exact")
    return (f"Exact depth here could examine about 10^{power} sets ({work:.3g}): at about "
            f"{EXACT_SETS_PER_SECOND:,.0f} sets a second that is up to {_duration(seconds)}, "
            f"{verdict}. The approximate depth shown is within ±{view.error_bound:.3g} of it.")
