"""The view a decision report describes, resolved against its dataset, and how to reproduce it.

A :class:`DecisionView` holds what the explorer's URL holds (objectives and directions,
focus and alpha or per-objective weights, p, the CDF population, range and value-set
filters) plus free ``--where`` conditions from the command line and the answers given in
"Help me choose". :func:`resolve` fills what a view leaves out from the dataset's default
view, exactly as the explorer and ``copa-dash select --dataset`` do, so the report states
every setting explicitly. :func:`cli_arguments` turns a resolved view back into the command
that reproduces it, and :func:`explore_view` into the Explore page's view
(:class:`~copa_dash.services.views.explore.ExploreView`, whose link is the page's own:
``services.views.link``).
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass, replace

from ..core.errors import InvalidInputError
from ..core.validate import check_p
from ..data.filters import Condition, RowFilter
from ..services.default_view import first_view
from ..services.selection import Preferences
from ..services.views.explore import ExploreView, filters_of


@dataclass(frozen=True)
class DecisionView:
    """One explorer view (COPA's settings and the constraints).

    Attributes
    ----------
    dataset : str
        A bundled dataset's name or an upload's id.
    objectives : tuple of (name, direction)
        Empty: the dataset's default view.
    focus, alpha : the focus set F and its weight alpha (ignored when ``weights`` is given).
    weights : tuple of (name, weight)
        One weight per objective instead of focus/alpha (normalised to sum 1).
    p : float
        The p of the criterion, in [1, inf].
    population : {"all", "filtered"}
        The rows u is computed over.
    ranges : tuple of (column, low or None, high or None), inclusive.
    sets : tuple of (column, allowed values as text).
    conditions : tuple of Condition
        Comparisons the explorer has no control for (``--where col<3``, ``col!=x``).
    answers : tuple of (question, answer)
        What the user answered in "Help me choose", shown as given.
    axes : {"", "raw", "cdf", "summary"}
        The axes the page's front figure shows (raw values, top-x% u, or the summary view);
        empty: the report chooses (the first focus objective against the next one).
    x, y : str
        The objectives on the page's x and y axes (raw and cdf views).
    log : tuple of str
        "x" and/or "y": the page's log axes (raw view).
    """

    dataset: str
    objectives: tuple = ()
    focus: tuple = ()
    alpha: float | None = None
    weights: tuple = ()
    p: float | None = None
    population: str = "all"
    ranges: tuple = ()
    sets: tuple = ()
    conditions: tuple = ()
    answers: tuple = ()
    use_default_filters: bool = True
    axes: str = ""
    x: str = ""
    y: str = ""
    log: tuple = ()


def resolve(view: DecisionView, table, default_view) -> DecisionView:
    """``view`` with every setting explicit: objectives and directions, focus, alpha, p and
    (when ``view.use_default_filters`` and it names no filter) the default view's filters.

    Raises
    ------
    InvalidInputError
        If an objective, a focus or a weight names a column that is not an objective of
        the table, or p is not a number >= 1.
    """
    known = dict(zip(table.objective_names, table.directions))
    objectives = tuple((str(n), str(d)) for n, d in view.objectives)
    unknown = [n for n, _ in objectives if n not in known]
    if unknown:
        raise InvalidInputError(f"{', '.join(map(repr, unknown))} is not an objective of the "
                                f"table; objectives: {', '.join(known)}")
    from_default = not objectives
    if from_default:
        chosen = [n for n in (default_view.objectives if default_view else ()) if n in known]
        objectives = tuple((n, known[n]) for n in (chosen or known))
    names = [n for n, _ in objectives]
    weights = tuple((str(n), float(w)) for n, w in view.weights)
    bad = [n for n, _ in weights if n not in names]
    if bad:
        raise InvalidInputError(f"weights name {', '.join(map(repr, bad))}, which is not a "
                                "chosen objective")
    focus = tuple(view.focus)
    if not focus and not weights:
        focus = tuple(f for f in (default_view.focus if default_view else ()) if f in names) \
            if from_default else ()
        if not focus and default_view is None and from_default:
            focus = first_view(table).focus  # an upload: the one default view's focus
        focus = focus or (names[0],)
    alpha = view.alpha if view.alpha is not None else (
        default_view.alpha if default_view is not None and from_default else 0.5)
    p = check_p(view.p) if view.p is not None else (
        default_view.p if default_view is not None and from_default else math.inf)
    ranges, sets = tuple(view.ranges), tuple(view.sets)
    if view.use_default_filters and default_view is not None and default_view.filters \
            and not ranges and not sets:
        ranges, sets = filters_of(default_view)     # as the page fills them in
    return replace(view, objectives=objectives, focus=focus, alpha=float(alpha), p=float(p),
                   weights=weights, ranges=ranges, sets=sets, use_default_filters=False)


def preferences(view: DecisionView) -> Preferences:
    """The selection service's preferences of a resolved view."""
    names = tuple(n for n, _ in view.objectives)
    weights = None
    if view.weights:
        given = dict(view.weights)
        weights = tuple(float(given.get(n, 0.0)) for n in names)
    return Preferences(objectives=names, directions=tuple(d for _, d in view.objectives),
                       focus=() if weights else tuple(view.focus), alpha=float(view.alpha),
                       weights=weights, p=float(view.p), population=view.population)


def row_filter(view: DecisionView) -> RowFilter:
    """The constraints of a resolved view."""
    return RowFilter(conditions=tuple(view.conditions),
                     ranges={c: (lo, hi) for c, lo, hi in view.ranges},
                     sets={c: list(v) for c, v in view.sets})


def cli_arguments(view: DecisionView, *, command: str = "select",
                  all_rows: bool = True) -> list[str]:
    """The ``copa-dash`` arguments that reproduce a resolved view of a bundled dataset or an
    upload: every setting spelled out, ``--all-rows`` so that only the filters written
    here apply (``all_rows=False`` leaves it out, for a table without a default view). A
    value set becomes ``--where COL==V`` (one value) or ``--in COL=A|B``."""
    args = ["copa-dash", command, "--dataset", view.dataset]
    for name, direction in view.objectives:
        args += ["--objective", f"{name}:{direction}"]
    if view.weights:
        args += ["--weights", ",".join(f"{n}={_number(w)}" for n, w in view.weights)]
    else:
        for name in view.focus:
            args += ["--focus", name]
        args += ["--alpha", _number(view.alpha)]
    args += ["--p", _p_text(view.p)] + (["--all-rows"] if all_rows else [])
    if view.population != "all":
        args += ["--cdf-population", view.population]
    for column, low, high in view.ranges:
        if low is not None:
            args += ["--where", f"{column}>={_number(low)}"]
        if high is not None:
            args += ["--where", f"{column}<={_number(high)}"]
    for column, values in view.sets:
        if len(values) == 1:
            args += ["--where", f"{column}=={values[0]}"]
        else:
            args += ["--in", f"{column}={'|'.join(values)}"]
    for condition in view.conditions:
        value = condition.value if isinstance(condition.value, str) else _number(condition.value)
        args += ["--where", f"{condition.column}{condition.operator}{value}"]
    return args


def command_line(arguments: list[str]) -> str:
    """Arguments as one POSIX shell line (each quoted where needed)."""
    return shlex.join(arguments)


def from_explore(view: ExploreView, answers: tuple = ()) -> DecisionView:
    """The report's view of an Explore view (every setting its link holds: the preferences,
    the constraints and the figure's axes), with the "Help me choose" questions and answers
    as (question, answer); the inverse of :func:`explore_view`."""
    return DecisionView(
        dataset=view.dataset, objectives=view.objectives, focus=view.focus,
        alpha=view.alpha, weights=view.weights, p=view.p, population=view.population,
        ranges=view.ranges, sets=view.sets, use_default_filters=False, answers=answers,
        axes=view.axes, x=view.x, y=view.y, log=tuple(view.log))


def explore_view(view: DecisionView) -> tuple[ExploreView, tuple[str, ...]]:
    """The Explore page's view of a resolved report view (its link is
    ``services.views.link(...)``), and what the link cannot hold (free conditions other than
    ranges and sets), in words. A report that states no axes leaves them to the page."""
    explore = ExploreView(
        dataset=view.dataset, objectives=tuple(view.objectives), focus=tuple(view.focus),
        alpha=float(view.alpha), weights=tuple(view.weights), p=float(view.p),
        population=view.population, ranges=tuple(view.ranges), sets=tuple(view.sets),
        axes=view.axes, x=view.x if view.axes else "", y=view.y if view.axes else "",
        log=tuple(view.log) if view.axes else ())
    lost = tuple(f"{c.column} {c.operator} "
                 f"{c.value if isinstance(c.value, str) else _number(c.value)}"
                 for c in view.conditions)
    return explore, lost


def conditions_from_where(conditions) -> tuple[tuple, tuple, tuple]:
    """Split parsed ``--where`` conditions into explorer ranges, value sets and the rest.

    ``COL>=X`` and ``COL<=X`` become range bounds, ``COL==V`` a one-value set; ``<``, ``>``
    and ``!=`` stay conditions (the explorer has no control for them).
    """
    low, high, sets, rest = {}, {}, {}, []
    for c in conditions:
        if isinstance(c.value, float) and c.operator == ">=":
            low[c.column] = max(low.get(c.column, -math.inf), c.value)
        elif isinstance(c.value, float) and c.operator == "<=":
            high[c.column] = min(high.get(c.column, math.inf), c.value)
        elif c.operator == "==" and c.column not in sets:
            sets[c.column] = (_text(c.value),)
        else:
            rest.append(c)
    ranges = tuple((col, low.get(col), high.get(col)) for col in dict.fromkeys([*low, *high]))
    return ranges, tuple(sets.items()), tuple(rest)


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _number(value) -> str:
    """Shortest text that reads back as exactly ``value`` (1.0 -> "1")."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _p_text(p: float) -> str:
    return "inf" if math.isinf(p) else _number(p)


__all__ = ["Condition", "DecisionView", "cli_arguments", "command_line", "conditions_from_where",
           "explore_view", "from_explore", "preferences", "resolve", "row_filter"]
