"""Preferences, objectives and row filter of a selection command, read from its arguments
and the dataset's default view (shared by the selection and the rankings commands)."""

from __future__ import annotations

import argparse
import math

from ..core.errors import InvalidInputError
from ..core.validate import check_p, format_p
from ..data.filters import RowFilter, filter_from_view, filter_from_where, value_sets_from_in
from ..services import selection
from ..services.default_view import first_view
from ._common import load_table


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
    parser.add_argument("--in", dest="in_sets", action="append", default=[], metavar='"COL=A|B"',
                        help="only rows whose COL is one of the values (repeatable)")
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
    """Table, preferences and filter from the arguments and the dataset's default view.

    A TABLE file without --objective, --focus or --weights gets the page's default view of
    an upload (:func:`~copa_dash.services.default_view.first_view`), kept in
    ``args.first_view`` for the output to say so (None otherwise).
    """
    table, info = load_table(args)
    view = info.default_view if info is not None else None
    objectives = list(table.objective_names)
    directions = list(table.directions)
    if view is not None and not args.objective:
        chosen = [o for o in view.objectives if o in objectives] or objectives
        directions = [directions[objectives.index(o)] for o in chosen]
        objectives = chosen
    focus = tuple(args.focus) or (tuple(view.focus) if view is not None and not args.objective else ())
    first = None
    if info is None and not args.objective and not args.focus and not args.weights:
        # a TABLE file opens as the page opens its upload: the one first view
        first = first_view(table)
        focus = first.focus
        # without the objectives missing in most rows, as the page opens it
        objectives, directions = list(first.objectives), list(first.directions)
    args.first_view = first
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
    in_sets = value_sets_from_in(getattr(args, "in_sets", []), list(table.frame.columns))
    if view is not None and view.filters and not getattr(args, "all_rows", False):
        defaults = filter_from_view(view.filters)
        row_filter = RowFilter(conditions=row_filter.conditions, ranges=defaults.ranges,
                               sets={**defaults.sets, **in_sets})
    elif in_sets:
        row_filter = RowFilter(conditions=row_filter.conditions, sets=in_sets)
    return table, prefs, row_filter


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


def first_view_line(args) -> str | None:
    """'view: the default view of an upload ...' when the command used it, else None."""
    first = getattr(args, "first_view", None)
    return None if first is None else "view: " + first.describe()


def view_line(view: dict) -> str:
    """The view in one readable line."""
    p = view.get("p")
    parts = [", ".join(view["objectives"]), view["weighting"],
             "p from each criterion" if p is None else f"p = {format_p(p)}"]
    if "method" in view:
        parts.append(f"method {view['method']}")
    parts.append(f"filters: {'; '.join(view['filters']) or 'none'}")
    return "view: " + "; ".join(parts)
