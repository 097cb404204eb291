"""Benchmark views of a long table (method x task x metric), as the paper's §5.4.

A long table has a system column (the method) and a task column. :func:`benchmark_view`
pivots one metric to a task x method matrix (the mean over a method's rows on a task,
e.g. folds or seeds), then computes each method's per-task CCDF ``1 - u``, the scaled
performance against a reference method (AMLB's view, paper Fig. 8), Friedman's test and the
Nemenyi critical difference. :func:`tradeoff_view` builds the performance-vs-time fronts per
task type of the paper's Fig. B.9, aggregating tasks with COPA. Both are memoised per
dataset in the shared cache.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core import benchmark_stats as stats
from ..core.dominance import nondominated_mask
from ..core.errors import InvalidInputError
from ..data.filters import RowFilter
from ..data.schema import EvalTable
from .rankings import filter_key

REFERENCE_HINTS = ("randomforest", "random forest", "rf", "erm", "single")


@dataclass(frozen=True)
class BenchmarkView:
    """One metric of a long table, per task and method, and the rank statistics on it."""

    metric: str
    direction: str
    methods: tuple            # (M,)
    tasks: tuple              # (T,)
    values: np.ndarray        # (T, M) mean over the method's rows on the task; NaN: no result
    ccdf: np.ndarray          # (T, M) 1 - u over the methods on the task
    scaled: np.ndarray        # (T, M) reference -> 0, best -> 1
    reference: str
    friedman: object | None   # FriedmanResult on the complete tasks, None when too few
    critical_difference: float | None
    cd_groups: tuple          # tuples of method positions not significantly different
    alpha: float
    n_complete_tasks: int
    notes: tuple


def long_format_columns(table: EvalTable) -> tuple[str, str]:
    """The (system, task) columns of a long table.

    Raises
    ------
    InvalidInputError
        If the table lacks either role.
    """
    system, task = table.roles.system, table.roles.task
    if system is None or task is None:
        raise InvalidInputError(
            "the benchmark view needs a long table with a system (method) column and a task "
            "column, one row per method and task; this dataset has "
            f"{'no system column' if system is None else 'no task column'}")
    return system, task


def _pivot(table: EvalTable, metric: str, row_filter: RowFilter):
    system, task = long_format_columns(table)
    frame = table.frame
    table.objective(metric)
    keep = row_filter.mask(frame)
    sub = frame.loc[keep, [system, task, metric]].copy()
    if sub.empty:
        raise InvalidInputError("no row passes the filters: allow more values")
    sub[system] = sub[system].astype(str)
    sub[task] = sub[task].astype(str)
    methods = tuple(dict.fromkeys(sub[system]))
    tasks = tuple(dict.fromkeys(sub[task]))
    means = sub.groupby([task, system], sort=False)[metric].mean().unstack(system)
    values = means.reindex(index=list(tasks), columns=list(methods)).to_numpy(dtype=float)
    return methods, tasks, np.ascontiguousarray(values), int(sub.duplicated([system, task]).sum())


def without_task_filter(table: EvalTable, row_filter: RowFilter) -> tuple[RowFilter, str]:
    """The filter without its value set on the task column (a benchmark compares across
    tasks), and a note saying so when there was one."""
    task = table.roles.task
    if task is None or task not in row_filter.sets:
        return row_filter, ""
    sets = {c: v for c, v in row_filter.sets.items() if c != task}
    note = (f"The filter on {task!r} is left out here: the benchmark view compares the methods "
            "across all tasks.")
    return RowFilter(conditions=row_filter.conditions, ranges=row_filter.ranges, sets=sets), note


def default_reference(methods) -> str:
    """The reference method the scaled view starts with: a random forest when there is one
    (AMLB's choice), else a common baseline name, else the first method."""
    lowered = {m.lower().replace("_", "").replace("-", ""): m for m in methods}
    for hint in REFERENCE_HINTS:
        for key, name in lowered.items():
            if key == hint.replace(" ", "") or (len(hint) > 3 and key.startswith(hint)):
                return name
    return methods[0]


def benchmark_view(table: EvalTable, *, metric: str | None = None, reference: str | None = None,
                   row_filter: RowFilter | None = None, alpha: float = 0.05,
                   dataset_id: str = "", cache=None) -> BenchmarkView:
    """Per-task CCDF, scaled performance, Friedman and Nemenyi for one metric.

    Raises
    ------
    InvalidInputError
        If the table is not long (system + task), the metric is not an objective, the
        reference is not a method, or fewer than 2 methods remain.
    """
    metric = metric or table.objective_names[0]
    row_filter, dropped = without_task_filter(table, row_filter or RowFilter())

    def compute() -> BenchmarkView:
        methods, tasks, values, n_averaged = _pivot(table, metric, row_filter)
        if len(methods) < 2:
            raise InvalidInputError("the benchmark view needs at least 2 methods")
        ref = reference or default_reference(methods)
        if ref not in methods:
            raise InvalidInputError(f"reference {ref!r} is not a method ({', '.join(methods)})")
        direction = table.objective(metric).direction
        ccdf = stats.per_task_ccdf(values, direction=direction)
        scaled = stats.scaled_performance(values, methods.index(ref), direction=direction)
        notes = [dropped] if dropped else []
        if n_averaged:
            notes.append(f"{n_averaged} rows repeat a (method, task) pair: each pair shows the "
                         "mean of its rows.")
        missing = int(np.isnan(values).sum())
        if missing:
            notes.append(f"{missing} (task, method) results are missing: the box plots leave "
                         "them out; Friedman uses only the tasks where every method has one.")
        undefined = int((np.isnan(scaled) & ~np.isnan(values)).sum())
        if undefined:
            notes.append(f"The scaled view is undefined for {undefined} results, on tasks where "
                         f"the reference {ref} is itself the best or has no result.")
        complete = ~np.isnan(values).any(axis=1)
        friedman, cd, groups = None, None, ()
        if complete.sum() >= 2 and len(methods) >= 3:
            friedman = stats.friedman_test(values[complete], direction=direction)
            cd = stats.nemenyi_critical_difference(len(methods), int(complete.sum()), alpha=alpha)
            groups = tuple(stats.critical_difference_groups(friedman.mean_ranks, cd))
        else:
            notes.append("Friedman's test needs at least 3 methods and 2 tasks where every "
                         "method has a result.")
        return BenchmarkView(metric=metric, direction=direction, methods=methods, tasks=tasks,
                             values=values, ccdf=ccdf, scaled=scaled, reference=ref,
                             friedman=friedman, critical_difference=cd, cd_groups=groups,
                             alpha=float(alpha), n_complete_tasks=int(complete.sum()),
                             notes=tuple(notes))

    if cache is None:
        return compute()
    key = {"metric": metric, "reference": reference, "filter": filter_key(row_filter),
           "alpha": float(alpha)}
    return cache.memoize("benchmark_view", dataset_id, key, compute)


def method_summaries(view: BenchmarkView) -> list[dict]:
    """Per method: quartiles of its CCDF and scaled values over tasks, its mean rank."""
    out = []
    for m, name in enumerate(view.methods):
        row = {"method": name}
        for label, matrix in (("ccdf", view.ccdf), ("scaled", view.scaled)):
            column = matrix[:, m][~np.isnan(matrix[:, m])]
            quartiles = np.percentile(column, [25, 50, 75]) if column.size else [np.nan] * 3
            row.update({f"{label}_q1": float(quartiles[0]), f"{label}_median": float(quartiles[1]),
                        f"{label}_q3": float(quartiles[2]),
                        f"{label}_mean": float(column.mean()) if column.size else float("nan")})
        row["n_tasks"] = int((~np.isnan(view.values[:, m])).sum())
        row["mean_rank"] = (float(view.friedman.mean_ranks[m]) if view.friedman is not None
                            else float("nan"))
        out.append(row)
    return out


@dataclass(frozen=True)
class TradeoffGroup:
    """Performance vs time of every method on one group of tasks (a task type)."""

    name: str
    methods: tuple
    performance: np.ndarray   # (M,) 1 - power mean of u over the group's tasks; higher better
    time: np.ndarray          # (M,) median time over the tasks with a result
    front: np.ndarray         # (M,) bool, non-dominated in (performance max, time min)
    n_tasks: int
    n_missing: int


def task_group_columns(table: EvalTable) -> list[str]:
    """Columns that are constant within every task (candidate task types), few values."""
    _, task = long_format_columns(table)
    frame = table.frame
    out = []
    for column in [*table.roles.metadata, *(c for c in frame.columns if c not in table.roles.metadata)]:
        if column in (task, table.roles.id, table.roles.system) or column in table.objective_names:
            continue
        if column not in frame.columns or column in out:
            continue
        per_task = frame.groupby(frame[task].astype(str))[column].nunique(dropna=False)
        n_values = frame[column].nunique()
        if (per_task <= 1).all() and 2 <= n_values <= 12:
            out.append(column)
    return out


def tradeoff_view(table: EvalTable, *, metric: str, time_metric: str, group_column: str | None,
                  p=2.0, row_filter: RowFilter | None = None, dataset_id: str = "",
                  cache=None) -> tuple[TradeoffGroup, ...]:
    """Per group of tasks: each method's performance aggregated with COPA and its median time.

    Raises
    ------
    InvalidInputError
        If the table is not long, a metric is unknown, or the group column varies
        within a task.
    """
    row_filter = without_task_filter(table, row_filter or RowFilter())[0]

    def compute():
        task = long_format_columns(table)[1]
        if time_metric == metric:
            raise InvalidInputError("choose a time metric other than the performance metric")
        methods, tasks, perf = _pivot(table, metric, row_filter)[:3]
        times = _pivot(table, time_metric, row_filter)[2]
        times = times.copy()
        times[np.isnan(perf)] = np.nan
        frame = table.frame.loc[row_filter.mask(table.frame)]
        if group_column:
            if group_column not in frame.columns:
                raise InvalidInputError(f"the table has no column {group_column!r}")
            kinds = frame.groupby(frame[task].astype(str))[group_column].agg(
                lambda s: s.astype(str).unique().tolist())
            if (kinds.map(len) > 1).any():
                raise InvalidInputError(
                    f"{group_column!r} varies within a task: it cannot group the tasks")
            labels = np.array([kinds[t][0] for t in tasks])
        else:
            labels = np.array(["all tasks"] * len(tasks))
        direction = table.objective(metric).direction
        out = []
        for name in dict.fromkeys(labels):
            rows = labels == name
            score = stats.aggregate_over_tasks(perf[rows], direction=direction, p=p)
            with np.errstate(all="ignore"):
                time = np.array([np.nanmedian(col) if (~np.isnan(col)).any() else np.nan
                                 for col in times[rows].T])
            valid = ~np.isnan(time)
            front = np.zeros(len(methods), dtype=bool)
            if valid.any():
                front[valid] = nondominated_mask(
                    np.column_stack([1.0 - score[valid], time[valid]]), ["max", "min"])
            out.append(TradeoffGroup(name=str(name), methods=methods, performance=1.0 - score,
                                     time=time, front=front, n_tasks=int(rows.sum()),
                                     n_missing=int(np.isnan(perf[rows]).sum())))
        return tuple(out)

    if cache is None:
        return compute()
    key = {"metric": metric, "time": time_metric, "group": group_column, "p": str(p),
           "filter": filter_key(row_filter)}
    return cache.memoize("tradeoff_view", dataset_id, key, compute)
