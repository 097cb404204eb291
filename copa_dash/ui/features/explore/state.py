"""The explorer's view state and its readable URL query.

Every setting the user can change lives in :class:`ExploreState`, and the state round-trips
through the query string, so a copied link reproduces the view:

``/explore?dataset=open-llm-leaderboard-v2&obj=ifeval:max&obj=co2_cost:min&focus=co2_cost
&alpha=0.5&p=inf&range=co2_cost:0:5&in=type:chat|base&axes=raw&x=co2_cost&y=ifeval``
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from copa_dash.services.default_view import first_view
from copa_dash.services.inputs import read_number
from copa_dash.ui.common.query import as_list as _as_list
from copa_dash.ui.common.query import (
    exact_number,
    objective_items,
    objective_pairs,
    range_items,
    range_triples,
    set_items,
    value_sets,
)
from copa_dash.ui.common.working_context import WorkingContext, context_notes, fit_to_table
from copa_dash.ui.features.explore.log_default import default_log_axes

AXES_MODES = ("raw", "cdf", "summary")
P_STOPS = (1.0, 1.5, 2.0, 4.0, 8.0, 16.0, math.inf)


@dataclass(frozen=True)
class ExploreState:
    """Everything the explorer shows is a function of this state (and the dataset)."""

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


def nearest_p_stop(p: float) -> int:
    """Index of the p slider's stop nearest to ``p`` (inf counts as 1e6; ties go to the
    smaller stop): where Enter in the p box moves the slider."""
    capped = min(p, 1e6)
    return min(range(len(P_STOPS)), key=lambda i: abs(min(P_STOPS[i], 1e6) - capped))


def format_p(p: float) -> str:
    """``inf`` or the shortest decimal that reads back as exactly p."""
    return "inf" if math.isinf(p) else _exact(p)


_exact = exact_number


_float = read_number


def parse_query(query: dict) -> ExploreState:
    """Read the state from a parsed query (``{key: str | list[str]}``); unknown keys are kept
    aside and malformed values fall back to defaults, so a hand-edited link never crashes."""
    weights = []
    for item in _as_list(query.get("w")):
        name, sep, value = item.rpartition(":")
        if sep and name:
            weights.append((name, max(0.0, _float(value, 0.0))))
    p_text = (_as_list(query.get("p")) or ["inf"])[0]
    p = max(1.0, _float(p_text, math.inf))
    axes = (_as_list(query.get("axes")) or ["raw"])[0]
    population = (_as_list(query.get("pop")) or ["all"])[0]
    return ExploreState(
        dataset=(_as_list(query.get("dataset")) or [""])[0],
        objectives=objective_pairs(query.get("obj")),
        focus=tuple(_as_list(query.get("focus"))),
        alpha=min(1.0, max(0.0, _float((_as_list(query.get("alpha")) or ["0.5"])[0], 0.5))),
        weights=tuple(weights),
        p=p,
        population=population if population in ("all", "filtered") else "all",
        ranges=range_triples(query.get("range")),
        sets=value_sets(query.get("in")),
        axes=axes if axes in AXES_MODES else "raw",
        x=(_as_list(query.get("x")) or [""])[0],
        y=(_as_list(query.get("y")) or [""])[0],
        log=tuple(a for a in ("x", "y") if a in _as_list(query.get("log"))),
        compare=(_as_list(query.get("compare")) or ["0"])[0] in ("1", "true", "yes"),
        choose="".join(c for c in (_as_list(query.get("choose")) or [""])[0] if c in "ab=")[:40],
    )


def to_query(state: ExploreState) -> str:
    """The readable query string (without the leading ``?``) that reproduces ``state``."""
    pairs: list[tuple[str, str]] = [("dataset", state.dataset)]
    pairs += [("obj", item) for item in objective_items(state.objectives)]
    if state.weights:
        pairs += [("w", f"{n}:{_exact(w)}") for n, w in state.weights]
    else:
        pairs += [("focus", f) for f in state.focus]
        pairs.append(("alpha", _exact(state.alpha)))
    pairs.append(("p", format_p(state.p)))
    if state.population != "all":
        pairs.append(("pop", state.population))
    pairs += [("range", item) for item in range_items(state.ranges)]
    pairs += [("in", item) for item in set_items(state.sets)]
    pairs.append(("axes", state.axes))
    if state.x:
        pairs.append(("x", state.x))
    if state.y:
        pairs.append(("y", state.y))
    # "none" keeps a linear axis linear when the link is opened again (see log_default)
    pairs += [("log", axis) for axis in state.log] or [("log", "none")]
    if state.compare:
        pairs.append(("compare", "1"))
    if state.choose:
        pairs.append(("choose", state.choose))
    return urlencode(pairs, safe=":|,")


def with_defaults(state: ExploreState, opened, given=()) -> ExploreState:
    """Fill what the URL left out (``given`` names the query keys it had) from the dataset's
    default view and roles."""
    table = opened.table
    view = opened.default_view
    all_objectives = list(zip(table.objective_names, table.directions))
    known = {name for name, _ in all_objectives}
    objectives = tuple((n, d) for n, d in state.objectives if n in known)
    # a table without a stated view (an upload) opens on the one first view the CLI, the
    # notebook and the API use too (services/default_view.py)
    first = first_view(table) if view is None and not objectives else None
    if not objectives:
        chosen = list(view.objectives) if view is not None and view.objectives else [n for n, _ in all_objectives]
        objectives = tuple((n, d) for n, d in all_objectives if n in chosen)
    names = [n for n, _ in objectives]
    focus = tuple(f for f in state.focus if f in names)
    if not focus and not state.weights and view is not None and not state.objectives:
        focus = tuple(f for f in view.focus if f in names)
    if not focus and not state.weights and first is not None:
        focus = first.focus
    if not focus and not state.weights and names:
        focus = (names[0],)
    updates = {"objectives": objectives, "focus": focus}
    if view is not None and not state.objectives:
        if "alpha" not in given:
            updates["alpha"] = view.alpha
        if "p" not in given:
            updates["p"] = view.p
        if not state.sets and not state.ranges and view.filters:
            sets, ranges = [], []
            for column, spec in view.filters.items():
                if isinstance(spec, dict):
                    ranges.append((column, spec.get("min"), spec.get("max")))
                else:
                    sets.append((column, tuple(_canonical(v) for v in spec)))
            updates["sets"] = tuple(sets)
            updates["ranges"] = tuple(ranges)
    if first is not None and state.x not in names:
        state = replace(state, x=first.x, y=first.y if state.y not in names else state.y)
    x = state.x if state.x in names else (focus[0] if focus else (names[0] if names else ""))
    others = [n for n in names if n != x]
    y = state.y if state.y in names and state.y != x else (others[0] if others else x)
    updates["x"], updates["y"] = x, y
    if "log" not in given:
        updates["log"] = default_log_axes(table, x, y)
    return replace(state, dataset=opened.ref, **updates)


def _canonical(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def apply_context(state: ExploreState, context: WorkingContext | None, opened, given=()):
    """The working context on the explorer (a hook, see ``ui/common/working_context``): its
    objectives, directions and constraints replace the default view's, the rest of the
    default view (focus, alpha, p) stays. Returns the state and the context bar's notes
    (None when the link carried no context)."""
    if context is None:
        return state, None
    table = opened.table
    fitted, left_out = fit_to_table(context, table)
    changed = replace(state, ranges=fitted.ranges, sets=fitted.sets,
                      objectives=fitted.objectives or state.objectives)
    state = with_defaults(changed, opened, given=given)
    return state, context_notes("Explore", context, used=fitted, left_out=left_out)
