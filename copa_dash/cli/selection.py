"""``copa-dash select | rank | sweep | front | hypervolume``."""

from __future__ import annotations

import argparse

import numpy as np

from ..core.errors import InvalidInputError
from ..core.numbers import read_numbers
from ..services import selection
from ..services.objectives import rows_left_out_note
from . import aliases_of
from ._common import add_table_arguments, emit, say_task_span
from .preferences import (
    add_preference_arguments,
    build,
    describe_view,
    first_view_line,
    view_line,
)
from .rank_criteria import run_criteria_rank


def run_select(args) -> int:
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    position = selection.select(problem)
    say_task_span(args, table, problem.eligible_rows, "pick")
    score = selection.scores(problem)[position]
    result = {
        "id": problem.ids[position],
        "index": int(problem.rows[position]),
        "score": float(score),
        "u": {name: float(problem.u[position, k]) for k, name in enumerate(prefs.objectives)},
    }
    if getattr(args, "first_view", None) is not None:
        result["view"] = args.first_view.to_dict()
    if args.json:
        emit(result, args)
    else:
        print(f"selected: {result['id']} (row {result['index']}), {prefs.method} score {score:.6g}")
        for k, name in enumerate(prefs.objectives):
            print(f"  {name} ({prefs.directions[k]}): {problem.raw[position, k]:.6g}"
                  f"  top {100 * problem.u[position, k]:.1f}%")
        if problem.n_missing:
            print(f"({rows_left_out_note(problem.n_missing)})")
        if first_view_line(args):
            print(first_view_line(args))
    return 0


def run_rank(args) -> int:
    if getattr(args, "criteria", None):
        return run_criteria_rank(args)
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    order = selection.ranking(problem)
    say_task_span(args, table, problem.eligible_rows, "rank")
    if args.top is not None:
        order = order[: args.top]
    values = selection.scores(problem)
    rows = [{"id": problem.ids[i], "rank": r + 1, "score": float(values[i])}
            for r, i in enumerate(order)]
    view = describe_view(prefs, row_filter)
    if getattr(args, "first_view", None) is not None:
        view["default_view"] = args.first_view.to_dict()
    emit({"ranking": rows, "view": view}, args, rows, ["rank", "id", "score"])
    if not args.json:
        print(view_line(view))
        if first_view_line(args):
            print(first_view_line(args))
    return 0


def run_sweep(args) -> int:
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    result = selection.sweep(problem, n_alphas=args.alphas)
    say_task_span(args, table, problem.eligible_rows, "pick")
    rows = [{"id": problem.ids[r], "alpha_min": float(lo), "alpha_max": float(hi)}
            for r, lo, hi in zip(result.rows, result.alpha_min, result.alpha_max)]
    rows.sort(key=lambda row: row["alpha_min"])
    emit({"selected": rows}, args, rows, ["id", "alpha_min", "alpha_max"])
    return 0


def run_front(args) -> int:
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    mask = selection.front_mask(problem)
    say_task_span(args, table, problem.eligible_rows, "front")
    ids = [problem.ids[i] for i in np.flatnonzero(mask)]
    emit({"ids": ids}, args, [{"id": i} for i in ids], ["id"])
    return 0


def run_hypervolume(args) -> int:
    # here, not at the top: core.hypervolume loads moocore, 66 ms CPU more on the start of
    # every select/rank/sweep/front (python -c, after build_parser("select"))
    from ..core.hypervolume import default_reference_point, hypervolume, hypervolume_auto

    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    directions = list(prefs.directions)
    if args.ref:
        ref = list(read_numbers(args.ref, what="--ref"))
    else:
        ref = default_reference_point(problem.raw[problem.eligible], directions)
    rows = problem.raw[problem.eligible]
    if args.exact:
        value = hypervolume(rows, ref, directions=directions)
        result = {"hypervolume": float(value), "exact": True, "method": "exact (--exact)",
                  "ci95": [float(value), float(value)], "n_samples": 0}
    else:
        if not (args.hv_budget >= 0 and np.isfinite(args.hv_budget)):
            raise InvalidInputError(f"--budget {args.hv_budget}: give a number of seconds >= 0")
        # seeded: the same table gives the same estimate on every run
        est = hypervolume_auto(rows, ref, directions=directions, budget_seconds=args.hv_budget, rng=0)
        result = {"hypervolume": est.value, "exact": est.exact, "method": est.method,
                  "ci95": [est.ci_low, est.ci_high], "n_samples": est.n_samples}
    result["ref"] = [float(r) for r in ref]
    if args.json:
        emit(result, args)
    else:
        print(f"hypervolume: {result['hypervolume']:.10g}")
        print(hypervolume_kind_line(result, args.hv_budget))
        print(f"ref: {result['ref']}")
    return 0


def hypervolume_kind_line(result: dict, budget: float) -> str:
    """One plain line saying whether the hypervolume is exact or a Monte-Carlo estimate."""
    if result["exact"]:
        return "exact" if result["method"] == "exact (--exact)" else f"exact ({result['method']})"
    low, high = result["ci95"]
    return (f"Monte-Carlo estimate: 95% interval [{low:.6g}, {high:.6g}] from "
            f"{result['n_samples']:,} samples (exact predicted to take over {budget:g} s; "
            f"--exact forces it, --budget SECONDS raises the limit)")


def _add_row_filter_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--where", action="append", default=[], metavar='"COL>=X"',
                        help="only rows that satisfy this (< <= > >= == !=); repeatable")
    parser.add_argument("--all-rows", action="store_true",
                        help="with --dataset: drop the default view's filters")


RANK_DESCRIPTION = (
    "Rank the eligible rows, best first. Plain rank and rank --criteria use the same view: "
    "with --dataset, the dataset's default view (its objectives, focus and alpha, p and "
    "filters; see 'copa-dash datasets'), changed by --objective, --focus/--alpha, --weights, "
    "--p, --where and --all-rows; with a TABLE file, the given objectives with equal weights "
    "unless --focus/--alpha or --weights say otherwise. --criteria takes p from each "
    "criterion (copa:1, copa:inf, ...) instead of --p; --equal-weights gives every objective "
    "the same weight (the Rankings page's default). Both print the view they used: a last "
    "line, or \"view\" in the --json output.")


def register(subparsers) -> None:
    """Add the selection subcommands to the CLI."""
    for name, runner, help_text in (
        ("select", run_select, "the row COPA (or a baseline) selects"),
        ("rank", run_rank, "all eligible rows, best first"),
        ("sweep", run_sweep, "the rows selected as alpha sweeps [0, 1], with their alpha ranges"),
    ):
        sub = subparsers.add_parser(name, help=help_text, aliases=aliases_of(name),
                                    description=RANK_DESCRIPTION if name == "rank" else None)
        add_table_arguments(sub)
        add_preference_arguments(sub)
        sub.set_defaults(run=runner)
        if name == "rank":
            sub.add_argument("--top", type=int, default=None, help="print only the best N rows")
            sub.add_argument("--criteria", default=None, metavar="copa:1,copa:inf,mean,norm,delta:REF",
                             help="rank under several criteria at once (a rank table per row), "
                                  "under the same view as plain rank")
            sub.add_argument("--equal-weights", action="store_true",
                             help="with --criteria: equal weights instead of the view's focus "
                                  "and alpha (the Rankings page's default, as in the paper's "
                                  "figures)")
            sub.add_argument("--ties", default="break", choices=("break", "keep"),
                             help="keep: tied rows share the best rank (default: untie as the chart does)")
        if name == "sweep":
            sub.add_argument("--alphas", type=int, default=10_000, help="number of alphas (default 10,000)")
    front = subparsers.add_parser("front", help="ids of the non-dominated rows (among those passing --where)")
    add_table_arguments(front)
    _add_row_filter_arguments(front)
    front.set_defaults(run=run_front, focus=[], alpha=None, weights=[], p=None, method="copa",
                       cdf_population="all")
    hv = subparsers.add_parser(
        "hypervolume", help="hypervolume of the rows: exact, or a Monte-Carlo estimate when exact "
                            "is predicted to take longer than --budget")
    add_table_arguments(hv)
    hv.add_argument("--ref", help="reference point V,V,... in raw units (default: nadir + 10%% of the range)")
    hv.add_argument("--exact", action="store_true",
                    help="always compute the exact value, however long it takes")
    # dest: args.budget is the table's budget column (load_table)
    hv.add_argument("--budget", dest="hv_budget", type=float, default=0.5, metavar="SECONDS",
                    help="compute exactly when a measured cost model predicts at most this many "
                         "seconds, else a seeded Monte-Carlo estimate with its 95%% interval "
                         "(default 0.5)")
    _add_row_filter_arguments(hv)
    hv.set_defaults(run=run_hypervolume, focus=[], alpha=None, weights=[], p=None, method="copa",
                    cdf_population="all")
