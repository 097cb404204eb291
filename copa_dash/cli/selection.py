"""``copa-dash select | rank | sweep | front | hypervolume``."""

from __future__ import annotations

import argparse
import math

import numpy as np

from ..core._validate import check_p
from ..core.errors import InvalidInputError
from ..data.filters import RowFilter, filter_from_where
from ..services import selection
from ._common import add_table_arguments, emit, load_table


def add_preference_arguments(parser: argparse.ArgumentParser) -> None:
    """--focus/--alpha or --weights, --p, --method, --where, --cdf-population."""
    parser.add_argument("--focus", action="append", default=[], metavar="COL",
                        help="a focus objective: it gets alpha, the others share 1 - alpha")
    parser.add_argument("--alpha", type=float, default=None, help="weight of the focus set (default 0.5)")
    parser.add_argument("--weights", action="append", default=[], metavar="COL=W,COL=W",
                        help="one weight per objective instead of --focus/--alpha (normalised to sum 1)")
    parser.add_argument("--p", default=None, help="the p of the p-norm: a number >= 1 or inf (default inf)")
    parser.add_argument("--method", default="copa", choices=selection.METHODS,
                        help="copa (default) or a baseline normalisation")
    parser.add_argument("--where", action="append", default=[], metavar='"COL>=X"',
                        help="a constraint on which rows may be selected (< <= > >= == !=)")
    parser.add_argument("--all-rows", action="store_true",
                        help="with --dataset: drop the default view's filters (e.g. only models on the hub)")
    parser.add_argument("--cdf-population", default="all", choices=("all", "filtered"),
                        help="compute u over all rows (default) or only the rows that pass --where")


def _weights(texts, objectives) -> tuple[float, ...] | None:
    if not texts:
        return None
    given = {}
    for text in texts:
        for part in text.split(","):
            name, sep, value = part.rpartition("=")
            if not sep or name not in objectives:
                raise InvalidInputError(
                    f"--weights {part!r}: write COL=W with COL one of {', '.join(objectives)}")
            try:
                given[name] = float(value)
            except ValueError:
                raise InvalidInputError(f"--weights {part!r}: {value!r} is not a number") from None
    return tuple(given.get(name, 0.0) for name in objectives)


def build(args):
    """Table, preferences and filter from the arguments and the dataset's default view."""
    table, info = load_table(args)
    view = info.default_view if info is not None else None
    objectives = list(table.objective_names)
    directions = list(table.directions)
    if view is not None and not args.objective:
        chosen = [o for o in view.objectives if o in objectives] or objectives
        directions = [directions[objectives.index(o)] for o in chosen]
        objectives = chosen
    focus = tuple(args.focus) or (tuple(view.focus) if view is not None and not args.objective else ())
    alpha = args.alpha if args.alpha is not None else (view.alpha if view is not None else 0.5)
    p = check_p(args.p) if args.p is not None else (view.p if view is not None else math.inf)
    weights = _weights(args.weights, objectives)
    if weights is not None and (args.focus or args.alpha is not None):
        raise InvalidInputError("give either --weights or --focus/--alpha, not both")
    if weights is not None:
        focus = ()
    prefs = selection.Preferences(
        objectives=tuple(objectives), directions=tuple(directions), focus=focus, alpha=alpha,
        weights=weights, p=p, method=args.method, population=args.cdf_population)
    row_filter = filter_from_where(args.where, list(table.frame.columns))
    if view is not None and view.filters and not getattr(args, "all_rows", False):
        defaults = view_filter(view.filters)
        row_filter = RowFilter(conditions=row_filter.conditions, ranges=defaults.ranges,
                               sets=defaults.sets)
    return table, prefs, row_filter


def view_filter(filters: dict) -> RowFilter:
    """A manifest default view's filters as a RowFilter."""
    ranges, sets = {}, {}
    for column, spec in filters.items():
        if isinstance(spec, dict):
            ranges[column] = (spec.get("min"), spec.get("max"))
        else:
            sets[column] = list(spec)
    return RowFilter(ranges=ranges, sets=sets)


def describe_view(prefs, row_filter) -> dict:
    """The view a command ranks or selects under: objectives, weights, p, method, filters."""
    weights = prefs.weight_vector()
    if prefs.weights is not None:
        how = "weights given with --weights"
    elif prefs.focus and len(prefs.focus) < len(prefs.objectives):
        how = f"focus {', '.join(prefs.focus)} gets alpha = {prefs.alpha:g}, the others share the rest"
    else:
        how = "equal weights"
    filters = [f"{c.column} {c.operator} {c.value}" for c in row_filter.conditions]
    filters += [f"{col} in [{'' if lo is None else lo}, {'' if hi is None else hi}]"
                for col, (lo, hi) in row_filter.ranges.items()]
    filters += [f"{col} in {{{', '.join(map(str, values))}}}"
                for col, values in row_filter.sets.items()]
    return {"objectives": [f"{o}:{d}" for o, d in zip(prefs.objectives, prefs.directions)],
            "weights": {o: float(w) for o, w in zip(prefs.objectives, weights)},
            "weighting": how, "p": prefs.p, "method": prefs.method, "filters": filters}


def view_line(view: dict) -> str:
    """The view in one readable line."""
    p = view.get("p")
    parts = [", ".join(view["objectives"]), view["weighting"],
             "p from each criterion" if p is None else f"p = {'inf' if math.isinf(p) else f'{p:g}'}"]
    if "method" in view:
        parts.append(f"method {view['method']}")
    parts.append(f"filters: {'; '.join(view['filters']) or 'none'}")
    return "view: " + "; ".join(parts)


def run_select(args) -> int:
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    position = selection.select(problem)
    score = selection.scores(problem)[position]
    result = {
        "id": problem.ids[position],
        "index": int(problem.rows[position]),
        "score": float(score),
        "u": {name: float(problem.u[position, k]) for k, name in enumerate(prefs.objectives)},
    }
    if args.json:
        emit(result, args)
    else:
        print(f"selected: {result['id']} (row {result['index']}), {prefs.method} score {score:.6g}")
        for k, name in enumerate(prefs.objectives):
            print(f"  {name} ({prefs.directions[k]}): {problem.raw[position, k]:.6g}"
                  f"  top {100 * problem.u[position, k]:.1f}%")
        if problem.n_missing:
            print(f"({problem.n_missing} rows left out for a missing objective value)")
    return 0


def run_rank(args) -> int:
    if getattr(args, "criteria", None):
        from .rankings import run_criteria_rank

        return run_criteria_rank(args)
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    order = selection.ranking(problem)
    if args.top is not None:
        order = order[: args.top]
    values = selection.scores(problem)
    rows = [{"id": problem.ids[i], "rank": r + 1, "score": float(values[i])}
            for r, i in enumerate(order)]
    view = describe_view(prefs, row_filter)
    emit({"ranking": rows, "view": view}, args, rows, ["rank", "id", "score"])
    if not args.json:
        print(view_line(view))
    return 0


def run_sweep(args) -> int:
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    result = selection.sweep(problem, n_alphas=args.alphas)
    rows = [{"id": problem.ids[r], "alpha_min": float(lo), "alpha_max": float(hi)}
            for r, lo, hi in zip(result.rows, result.alpha_min, result.alpha_max)]
    rows.sort(key=lambda row: row["alpha_min"])
    emit({"selected": rows}, args, rows, ["id", "alpha_min", "alpha_max"])
    return 0


def run_front(args) -> int:
    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    mask = selection.front_mask(problem)
    ids = [problem.ids[i] for i in np.flatnonzero(mask)]
    emit({"ids": ids}, args, [{"id": i} for i in ids], ["id"])
    return 0


def run_hypervolume(args) -> int:
    from ..core.hypervolume import default_reference_point, hypervolume

    table, prefs, row_filter = build(args)
    problem = selection.build_problem(table, prefs, row_filter)
    directions = list(prefs.directions)
    if args.ref:
        try:
            ref = [float(v) for v in args.ref.split(",")]
        except ValueError:
            raise InvalidInputError(f"--ref {args.ref!r}: write numbers separated by commas") from None
    else:
        ref = default_reference_point(problem.raw[problem.eligible], directions)
    value = hypervolume(problem.raw[problem.eligible], ref, directions=directions)
    emit({"hypervolume": float(value), "ref": [float(r) for r in ref]}, args)
    return 0


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
        sub = subparsers.add_parser(name, help=help_text,
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
    hv = subparsers.add_parser("hypervolume", help="exact hypervolume of the rows")
    add_table_arguments(hv)
    hv.add_argument("--ref", help="reference point V,V,... in raw units (default: nadir + 10%% of the range)")
    _add_row_filter_arguments(hv)
    hv.set_defaults(run=run_hypervolume, focus=[], alpha=None, weights=[], p=None, method="copa",
                    cdf_population="all")
