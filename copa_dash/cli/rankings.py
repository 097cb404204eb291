"""``copa-dash rank --criteria ...`` (ranks under several criteria) and ``copa-dash benchmark``.

``rank --criteria "copa:1,copa:inf,mean,norm,delta:REF,obj:COL"`` prints, with ``--json``,
``{"criteria": [...], "ranks": [{"id": ..., "copa:1": 3, ...}, ...]}``: one entry per row (or
per system, averaged over its rows, when the table has a system column with several rows per
system), rank 1 best, ties broken as in the page's bump chart (COPA at p = 8, then the sum
of u, then table order) unless ``--ties keep``. The weights are those of plain ``rank``
(with --dataset, the default view's focus and alpha), or equal with ``--equal-weights`` (the
Rankings page's default, as in the paper's figures); the output says which (``"view"``).

``benchmark`` compares the methods of a long table (method x task) on one metric: the
quartiles of their per-task CCDF (1 - u) and scaled performance, their mean rank, Friedman's
test and the Nemenyi critical difference.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.errors import InvalidInputError
from ..core.rank_tables import rank_spread
from ..data.filters import RowFilter, filter_from_where
from ..services import benchmarks, rankings
from ._common import add_table_arguments, emit, format_table, jsonable, load_table


def run_criteria_rank(args) -> int:
    """Print the rank of every row under every criterion of ``args.criteria``."""
    from .selection import build, describe_view, view_line

    table, prefs, row_filter = build(args)
    equal = bool(getattr(args, "equal_weights", False))
    if equal and (args.focus or args.weights or args.alpha is not None):
        raise InvalidInputError("give either --equal-weights or --focus/--alpha/--weights, not both")
    weights = None if equal else prefs.weight_vector()
    described = describe_view(prefs, row_filter)
    del described["p"], described["method"]  # each criterion names its own
    if equal:
        described["weighting"] = "equal weights (--equal-weights)"
        described["weights"] = {o: 1.0 / len(prefs.objectives) for o in prefs.objectives}
    view = rankings.rank_view(table, criteria=args.criteria,
                              objectives=list(zip(prefs.objectives, prefs.directions)),
                              weights=weights, row_filter=row_filter)
    ties = getattr(args, "ties", "break") or "break"
    ranks = view.ranks(ties)
    records = rankings.rank_records(view, ties=ties)
    if args.top is not None:
        if args.top < 1:
            raise InvalidInputError("--top must be a positive number")
        keep = np.argsort(ranks[:, 0], kind="stable")[: args.top]
        records = [records[i] for i in keep]
    if args.json:
        emit({"criteria": list(view.criteria), "ranks": records, "view": described}, args)
        return 0
    spread = rank_spread(ranks)
    shown = {r["id"] for r in records}
    rows = []
    for i in rankings.change_order(view, ties=ties):
        if str(view.ids[i]) in shown:
            rows.append({"id": str(view.ids[i]), **{c: int(ranks[i, j])
                                                    for j, c in enumerate(view.criteria)},
                         "moves": int(spread[i])})
    print(format_table(rows, ["id", *view.criteria, "moves"]))
    print(f"({len(view.ids)} entries; largest rank changes first; ties "
          f"{'kept' if ties == 'keep' else 'broken by COPA at p = 8'})")
    for note in view.notes:
        print(note)
    print(view_line(described))
    return 0


def _benchmark_filter(args, table, info) -> RowFilter:
    """--where, else the dataset's default filters (the service leaves out the one on the
    task column, and says so)."""
    if args.where:
        return filter_from_where(args.where, list(table.frame.columns))
    if info is None or not info.default_view.filters:
        return RowFilter()
    from .selection import view_filter

    return view_filter(info.default_view.filters)


def run_benchmark(args) -> int:
    """Per-method CCDF and scaled summaries, Friedman's test and the critical difference."""
    table, info = load_table(args)
    metric = args.metric
    if metric is None and info is not None and info.default_view.focus:
        metric = info.default_view.focus[0]
    view = benchmarks.benchmark_view(table, metric=metric, reference=args.reference,
                                     row_filter=_benchmark_filter(args, table, info),
                                     alpha=args.significance)
    summaries = benchmarks.method_summaries(view)
    friedman = None
    if view.friedman is not None:
        f = view.friedman
        friedman = {"statistic": f.statistic, "pvalue": f.pvalue, "f_statistic": f.f_statistic,
                    "f_pvalue": f.f_pvalue, "n_tasks": f.n_tasks, "n_methods": f.n_methods}
    result = {
        "metric": view.metric, "direction": view.direction, "reference": view.reference,
        "n_tasks": len(view.tasks), "n_complete_tasks": view.n_complete_tasks,
        "methods": summaries, "friedman": friedman,
        "critical_difference": view.critical_difference, "alpha": view.alpha,
        "cd_groups": [[view.methods[m] for m in group] for group in view.cd_groups],
        "notes": list(view.notes),
    }
    if args.json:
        emit(result, args)
        return 0
    rows = sorted(summaries, key=lambda r: (math.inf if math.isnan(r["mean_rank"])
                                            else r["mean_rank"]))
    print(f"{view.metric} ({view.direction}) over {len(view.tasks)} tasks; CCDF = 1 - u over the "
          f"methods on each task (1 = best); scaled: {view.reference} = 0, the task's best = 1")
    print(format_table([jsonable(r) for r in rows],
                       ["method", "mean_rank", "ccdf_median", "ccdf_q1", "ccdf_q3",
                        "scaled_median", "n_tasks"]))
    if friedman is not None:
        print(f"Friedman chi2 = {friedman['statistic']:.4g}, p = {friedman['pvalue']:.3g} "
              f"(Iman-Davenport F = {friedman['f_statistic']:.4g}, p = {friedman['f_pvalue']:.3g})"
              f" on {view.n_complete_tasks} tasks with every method")
        print(f"Nemenyi critical difference at alpha = {view.alpha:g}: "
              f"{view.critical_difference:.4f}")
        for group in result["cd_groups"]:
            print("  not significantly different: " + ", ".join(group))
    for note in view.notes:
        print(note)
    return 0


def register(subparsers) -> None:
    """Add ``benchmark`` to the CLI (``rank --criteria`` is wired by the selection module)."""
    sub = subparsers.add_parser(
        "benchmark", help="compare the methods of a long table (method x task) on one metric")
    add_table_arguments(sub)
    sub.add_argument("--system", help="the method column of a TABLE file")
    sub.add_argument("--task", help="the task column of a TABLE file")
    sub.add_argument("--seed", help="the seed column of a TABLE file (rows are averaged)")
    sub.add_argument("--metric", help="the objective to compare on (default: the view's focus)")
    sub.add_argument("--reference", help="reference method of the scaled view (default: a "
                                         "random forest if there is one)")
    sub.add_argument("--significance", type=float, default=0.05,
                     help="significance level of the Nemenyi critical difference (default 0.05)")
    sub.add_argument("--where", action="append", default=[], metavar='"COL==X"',
                     help="keep only the rows that pass (default: the dataset's default filters "
                          "except the one on the task column)")
    sub.set_defaults(run=run_benchmark)
