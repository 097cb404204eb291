"""``copa-dash benchmark`` (``rank --criteria`` is in cli/rank_criteria.py).

``benchmark`` compares the methods of a long table (method x task) on one metric: the
quartiles of their per-task CCDF (1 - u) and scaled performance, their mean rank, Friedman's
test and the Nemenyi critical difference.
"""

from __future__ import annotations

import math

from ..data.filters import RowFilter, filter_from_view, filter_from_where
from ..services import benchmarks
from ._common import emit, format_table, jsonable, load_table
from ._register import print_notes, table_command

# the column options of `benchmark`: the parts a column of a long table plays
_COLUMNS = {"system": "the method column of a TABLE file",
           "task": "the task column of a TABLE file",
           "seed": "the seed column of a TABLE file (rows are averaged)",
           "metric": "the objective to compare on (default: the view's focus)",
           "reference": "reference method of the scaled view (default: a random forest "
                        "if there is one)"}


def _benchmark_filter(args, table, info) -> RowFilter:
    """--where, else the dataset's default filters (the service leaves out the one on the
    task column, and says so)."""
    if args.where:
        return filter_from_where(args.where, list(table.frame.columns))
    if info is None or not info.default_view.filters:
        return RowFilter()
    return filter_from_view(info.default_view.filters)


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
    return print_notes(view.notes)


def register(subparsers) -> None:
    """Add ``benchmark`` to the CLI (``rank --criteria`` is wired by the selection module)."""
    sub = table_command(
        subparsers, "benchmark",
        "compare the methods of a long table (method x task) on one metric", run_benchmark,
        columns=_COLUMNS)
    sub.add_argument("--significance", type=float, default=0.05,
                     help="significance level of the Nemenyi critical difference (default 0.05)")
    sub.add_argument("--where", action="append", default=[], metavar='"COL==X"',
                     help="keep only the rows that pass (default: the dataset's default filters "
                          "except the one on the task column)")
