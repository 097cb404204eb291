"""The Explore page's view: every setting the explorer shows, its readable link, its default.

Every setting the user can change lives in :class:`ExploreView`, and the view round-trips
through the query string, so a copied link reproduces it:

``/explore?dataset=open-llm-leaderboard-v2&obj=ifeval:max&obj=co2_cost:min&focus=co2_cost
&alpha=0.5&p=inf&range=co2_cost:0:5&in=type:chat|base&axes=raw&x=co2_cost&y=ifeval``

This is the one place that knows this format and the one default view of a table: the
page (``ui/features/explore/state.py``), the decision report (``reports/view.py``), the CLI,
the notebook and the upload's background first view (``services/first_view.py``) all build
and read Explore views here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import ClassVar
from urllib.parse import urlencode

from ...core.errors import InvalidInputError
from ...core.numbers import read_number
from ...core.validate import check_p
from ...data.filters import RowFilter
from ..default_view import kept_first_view
from ..selection import Preferences
from .log_axes import default_log_axes
from .query import (
    as_list,
    exact_number,
    objective_items,
    objective_pairs,
    parsed,
    range_items,
    range_triples,
    set_items,
    value_sets,
)
from .tabbed import opened_of

AXES_MODES = ("raw", "cdf", "summary")
P_STOPS = (1.0, 1.5, 2.0, 4.0, 8.0, 16.0, math.inf)


def nearest_p_stop(p: float) -> int:
    """Index of the p slider's stop nearest to ``p`` (inf counts as 1e6; ties go to the
    smaller stop): where Enter in the p box moves the slider."""
    capped = min(p, 1e6)
    return min(range(len(P_STOPS)), key=lambda i: abs(min(P_STOPS[i], 1e6) - capped))


def format_p(p: float) -> str:
    """``inf`` or the shortest decimal that reads back as exactly p.

    Examples
    --------
    >>> format_p(math.inf), format_p(2.0), format_p(1.5)
    ('inf', '2', '1.5')
    """
    return "inf" if math.isinf(p) else exact_number(p)


_float = read_number   # one lenient number reader (copa_dash.core.numbers)


@dataclass(frozen=True)
class ExploreView:
    """Everything the explorer shows is a function of this view (and the dataset).

    Attributes
    ----------
    dataset : str
        A bundled dataset's name, an upload's id or a notebook table's reference.
    objectives : tuple of (name, "min" | "max")
    focus, alpha : the focus set F and its weight alpha (unused when ``weights`` is given).
    weights : tuple of (name, weight)
        Advanced mode when non-empty: one weight per objective.
    p : float
        The p of the criterion, in [1, inf] (NaN: the p box holds no number).
    population : {"all", "filtered"}
        The rows u is computed over.
    ranges, sets : the constraints: (column, low or None, high or None), (column, values).
    axes : {"raw", "cdf", "summary", ""}
        The front figure's axes; "" (a report's view that states none) leaves axes, x, y
        and log out of the link, so the page chooses them as for a link without them.
    x, y : the objectives on the axes. log : "x" and/or "y", the log axes (raw view).
    compare : bool
        Whether the page compares the view with the previous one.
    choose : str
        The "Help me choose" answers (``a``, ``b``, ``=``).
    """

    PAGE: ClassVar[str] = "explore"
    #: the query keys :meth:`from_query` reads (every other key of a link is not a setting)
    QUERY_KEYS: ClassVar[frozenset] = frozenset({
        "dataset", "obj", "focus", "alpha", "w", "p", "pop", "range", "in", "axes", "x", "y",
        "log", "compare", "choose"})
    dataset: str = ""
    objectives: tuple[tuple[str, str], ...] = ()      # (column, "min" | "max")
    focus: tuple[str, ...] = ()
    alpha: float = 0.5
    weights: tuple[tuple[str, float], ...] = ()        # advanced mode when non-empty
    p: float = math.inf
    population: str = "all"
    ranges: tuple[tuple[str, float | None, float | None], ...] = ()
    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    axes: str = "raw"
    x: str = ""
    y: str = ""
    log: tuple[str, ...] = ()                          # "x" and/or "y": log axes (raw view)
    compare: bool = False
    choose: str = ""                                  # "Help me choose" answers: a, b, =
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def objective_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.objectives)

    @property
    def directions(self) -> tuple[str, ...]:
        return tuple(direction for _, direction in self.objectives)

    @property
    def weight_mode(self) -> bool:
        return bool(self.weights)

    # -- the link ------------------------------------------------------------------------
    @classmethod
    def from_query(cls, query) -> ExploreView:
        """Read the view from a query string (``"dataset=x&p=2"``, a leading ``?`` allowed)
        or a parsed query (``{key: str | list[str]}``); malformed values fall back to
        defaults, so a hand-edited (or old) link never crashes.

        Examples
        --------
        >>> view = ExploreView.from_query("dataset=d&obj=a:max&obj=b:min&p=2&alpha=7")
        >>> view.objectives, view.p, view.alpha
        ((('a', 'max'), ('b', 'min')), 2.0, 1.0)
        """
        query = parsed(query)
        weights = []
        for item in as_list(query.get("w")):
            name, sep, value = item.rpartition(":")
            if sep and name:
                weights.append((name, max(0.0, _float(value, 0.0))))
        p_text = (as_list(query.get("p")) or ["inf"])[0]
        p = max(1.0, _float(p_text, math.inf))
        axes = (as_list(query.get("axes")) or ["raw"])[0]
        population = (as_list(query.get("pop")) or ["all"])[0]
        return cls(
            dataset=(as_list(query.get("dataset")) or [""])[0],
            objectives=objective_pairs(query.get("obj")),
            focus=tuple(as_list(query.get("focus"))),
            alpha=min(1.0, max(0.0, _float((as_list(query.get("alpha")) or ["0.5"])[0], 0.5))),
            weights=tuple(weights),
            p=p,
            population=population if population in ("all", "filtered") else "all",
            ranges=range_triples(query.get("range")),
            sets=value_sets(query.get("in")),
            axes=axes if axes in AXES_MODES else "raw",
            x=(as_list(query.get("x")) or [""])[0],
            y=(as_list(query.get("y")) or [""])[0],
            log=tuple(a for a in ("x", "y") if a in as_list(query.get("log"))),
            compare=(as_list(query.get("compare")) or ["0"])[0] in ("1", "true", "yes"),
            choose="".join(c for c in (as_list(query.get("choose")) or [""])[0] if c in "ab=")[:40],
        )

    def to_query(self) -> str:
        """The readable query string (without the leading ``?``) that reproduces the view.

        Examples
        --------
        >>> ExploreView("d", (("a", "max"),), focus=("a",), p=2.0).to_query()
        'dataset=d&obj=a:max&focus=a&alpha=0.5&p=2&axes=raw&log=none'
        """
        pairs: list[tuple[str, str]] = [("dataset", self.dataset)]
        pairs += [("obj", item) for item in objective_items(self.objectives)]
        if self.weights:
            pairs += [("w", f"{n}:{exact_number(w)}") for n, w in self.weights]
        else:
            pairs += [("focus", f) for f in self.focus]
            pairs.append(("alpha", exact_number(self.alpha)))
        pairs.append(("p", format_p(self.p)))
        if self.population != "all":
            pairs.append(("pop", self.population))
        pairs += [("range", item) for item in range_items(self.ranges)]
        pairs += [("in", item) for item in set_items(self.sets)]
        if self.axes:
            pairs.append(("axes", self.axes))
            if self.x:
                pairs.append(("x", self.x))
            if self.y:
                pairs.append(("y", self.y))
            # "none" keeps a linear axis linear when the link is opened again (see log_axes)
            pairs += [("log", axis) for axis in self.log] or [("log", "none")]
        if self.compare:
            pairs.append(("compare", "1"))
        if self.choose:
            pairs.append(("choose", self.choose))
        return urlencode(pairs, safe=":|,")

    # -- the default ---------------------------------------------------------------------
    def with_defaults(self, opened, given=()) -> ExploreView:
        """Fill what the link left out (``given`` names the query keys it had) from the
        dataset's stated default view and roles, or, for a table without one (an upload),
        from the one first view (:func:`~copa_dash.services.default_view.first_view`).

        ``opened`` is an opened dataset (``.table``, ``.default_view``, ``.ref``).
        """
        table = opened.table
        view = opened.default_view
        all_objectives = list(zip(table.objective_names, table.directions))
        known = {name for name, _ in all_objectives}
        objectives = tuple((n, d) for n, d in self.objectives if n in known)
        # a table without a stated view (an upload) opens on the one first view
        first = kept_first_view(table) if view is None and not objectives else None
        if not objectives:
            chosen = (list(view.objectives) if view is not None and view.objectives
                      else list(first.objectives) if first is not None
                      else [n for n, _ in all_objectives])
            objectives = tuple((n, d) for n, d in all_objectives if n in chosen)
        names = [n for n, _ in objectives]
        focus = tuple(f for f in self.focus if f in names)
        if not focus and not self.weights and view is not None and not self.objectives:
            focus = tuple(f for f in view.focus if f in names)
        if not focus and not self.weights and first is not None:
            focus = first.focus
        if not focus and not self.weights and names:
            focus = (names[0],)
        updates = {"objectives": objectives, "focus": focus}
        state = self
        if view is not None and not self.objectives:
            if "alpha" not in given:
                updates["alpha"] = view.alpha
            if "p" not in given:
                updates["p"] = view.p
            if not self.sets and not self.ranges and view.filters:
                updates["ranges"], updates["sets"] = filters_of(view)
        if first is not None and state.x not in names:
            state = replace(state, x=first.x, y=first.y if state.y not in names else state.y)
        x = state.x if state.x in names else (focus[0] if focus else (names[0] if names else ""))
        others = [n for n in names if n != x]
        y = state.y if state.y in names and state.y != x else (others[0] if others else x)
        updates["x"], updates["y"] = x, y
        if "log" not in given:
            updates["log"] = default_log_axes(table, x, y)
        return replace(state, dataset=opened.ref, **updates)

    @classmethod
    def default_for(cls, table, *, dataset: str = "", default_view=None) -> ExploreView:
        """The view a link naming only the dataset opens: the table's stated default view
        (``default_view``, a bundled dataset's) or else the one first view of an upload.

        ``table`` is an :class:`~copa_dash.data.schema.EvalTable` or an opened dataset (then
        its reference and default view are used).
        """
        opened = opened_of(table, dataset, default_view)
        return cls(dataset=opened.ref).with_defaults(opened)

    # -- what the services need ----------------------------------------------------------
    def preferences(self) -> Preferences:
        """The selection service's preferences of a filled-in view.

        Raises
        ------
        InvalidInputError
            If p is not a number >= 1, or the weights are all zero.
        """
        if math.isnan(self.p):
            raise InvalidInputError("p must be a number >= 1, or inf: type e.g. 2 or inf in the "
                                    "p box")
        p = check_p(self.p)
        names = self.objective_names
        weights = None
        if self.weights:
            given = dict(self.weights)
            weights = tuple(float(given.get(n, 0.0)) for n in names)
        return Preferences(objectives=names, directions=self.directions, focus=self.focus,
                           alpha=self.alpha, weights=weights, p=p, population=self.population)

    def row_filter(self) -> RowFilter:
        """The constraints of the view (its ranges and sets of values)."""
        return RowFilter(ranges={c: (lo, hi) for c, lo, hi in self.ranges},
                         sets={c: list(v) for c, v in self.sets})

    def memo_key(self) -> str:
        """What identifies the view's exploration: its link without the "Help me choose"
        answers (they change nothing explored)."""
        return replace(self, choose="").to_query()


def filters_of(default_view) -> tuple[tuple, tuple]:
    """A stated default view's filters as the view's ``(ranges, sets)`` (values as text)."""
    sets, ranges = [], []
    for column, spec in default_view.filters.items():
        if isinstance(spec, dict):
            ranges.append((column, spec.get("min"), spec.get("max")))
        else:
            sets.append((column, tuple(value_text(v) for v in spec)))
    return tuple(ranges), tuple(sets)


def value_text(value) -> str:
    """A filter value as the link writes it (``true``/``false`` for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
