"""The rankings page's view state and its readable URL query.

``/rankings?dataset=decodingtrust&crit=mean,norm,copa:1,copa:inf&ties=break&top=25&pin=GPT-4``
reproduces the bump chart; ``tab=benchmark&metric=metric_error&ref=RandomForest`` the
benchmark view. Malformed values fall back to defaults, so a hand-edited link never crashes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar
from urllib.parse import urlencode

from copa_dash.services.rankings import DEFAULT_CRITERIA
from copa_dash.ui.common.query import as_list as _list
from copa_dash.ui.common.query import first as _first
from copa_dash.ui.common.query import number as _number
from copa_dash.ui.common.tabbed_view import TabbedView
from copa_dash.ui.common.working_context import (
    WorkingContext,
    context_notes,
    directions_of,
    fit_to_table,
)

DEFAULT_TOP = 25
MAX_TOP = 200


@dataclass(frozen=True)
class RankingsState(TabbedView):
    """Everything the rankings page shows is a function of this state (and the dataset):
    besides the dataset, tab and objectives (:class:`TabbedView`), the criteria ranked by, the
    pins and sets, and the benchmark tab's metric, reference and time."""

    TABS: ClassVar[tuple[str, ...]] = ("ranks", "benchmark")
    criteria: tuple[str, ...] = ()
    focus: tuple[str, ...] = ()              # empty: equal weights
    alpha: float = 0.5
    ties: str = "break"
    group: str = "system"
    top: int = DEFAULT_TOP
    by: str = ""
    pins: tuple[str, ...] = ()
    sets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    metric: str = ""
    reference: str = ""
    time: str = ""
    task_type: str = ""
    significance: float = 0.05


def parse_query(query: dict) -> RankingsState:
    """Read the state from a parsed query (``{key: str | list[str]}``)."""
    criteria = [c.strip() for item in _list(query.get("crit")) for c in item.split(",")
                if c.strip()]
    sets = []
    for item in _list(query.get("in")):
        name, sep, values = item.partition(":")
        if sep and name:
            sets.append((name, tuple(v for v in values.split("|") if v != "")))
    ties = _first(query, "ties", "break")
    group = _first(query, "group", "system")
    return RankingsState(
        **TabbedView.shared_fields(query),
        criteria=tuple(dict.fromkeys(criteria)),
        focus=tuple(_list(query.get("focus"))),
        alpha=min(1.0, max(0.0, _number(_first(query, "alpha", "0.5"), 0.5))),
        ties=ties if ties in ("break", "keep") else "break",
        group=group if group in ("system", "rows") else "system",
        top=int(min(MAX_TOP, max(1, _number(_first(query, "top", str(DEFAULT_TOP)), DEFAULT_TOP)))),
        by=_first(query, "by"),
        pins=tuple(_list(query.get("pin"))),
        sets=tuple(sets),
        metric=_first(query, "metric"),
        reference=_first(query, "ref"),
        time=_first(query, "time"),
        task_type=_first(query, "type"),
        significance=min(0.5, max(0.001, _number(_first(query, "sig", "0.05"), 0.05))),
    )


def to_query(state: RankingsState) -> str:
    """The readable query string (without ``?``) that reproduces ``state``."""
    pairs = [("dataset", state.dataset), ("tab", state.tab), ("crit", ",".join(state.criteria))]
    pairs += [("obj", name) for name in state.objectives]
    if state.focus:
        pairs += [("focus", f) for f in state.focus] + [("alpha", f"{state.alpha:g}")]
    pairs += [("ties", state.ties), ("group", state.group), ("top", str(state.top))]
    if state.by:
        pairs.append(("by", state.by))
    pairs += [("pin", p) for p in state.pins]
    pairs += [("in", f"{name}:{'|'.join(values)}") for name, values in state.sets]
    for key, value in (("metric", state.metric), ("ref", state.reference), ("time", state.time),
                       ("type", state.task_type)):
        if value:
            pairs.append((key, value))
    if state.significance != 0.05:
        pairs.append(("sig", f"{state.significance:g}"))
    return urlencode(pairs, safe=":|,")


def with_defaults(state: RankingsState, opened) -> RankingsState:
    """Fill what the URL left out from the dataset's default view and roles."""
    table = opened.table
    view = opened.default_view
    names = list(table.objective_names)
    objectives = state.objectives_in(opened)
    criteria = state.criteria or DEFAULT_CRITERIA
    sets = state.sets
    if not sets and view is not None and view.filters:
        sets = tuple((column, tuple(_text(v) for v in spec))
                     for column, spec in view.filters.items() if not isinstance(spec, dict))
    metric = state.metric if state.metric in names else (
        next((f for f in (view.focus if view is not None else ()) if f in names), names[0]))
    others = [n for n in names if n != metric]
    timed = sorted((n for n in others if "time" in n.lower()),
                   key=lambda n: "infer" not in n.lower())   # AMLB plots inference time
    time = state.time if state.time in others else next(iter(timed + others), "")
    return replace(state, dataset=opened.ref, objectives=objectives, criteria=tuple(criteria),
                   focus=tuple(f for f in state.focus if f in objectives), sets=sets,
                   metric=metric, time=time)


def _text(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def apply_context(state: RankingsState, context: WorkingContext | None, opened):
    """The working context on the rankings page (a hook, see ``ui/common/working_context``):
    its objectives and its sets of values replace the default view's; ranges and flipped
    directions cannot apply here, and the notes say so. Returns the state and the notes
    (None when the link carried no context)."""
    if context is None:
        return state, None
    table = opened.table
    fitted, left_out = fit_to_table(context, table)
    objectives = fitted.objective_names or state.objectives
    used = WorkingContext(objectives=fitted.objectives, sets=fitted.sets)
    state = replace(state, objectives=objectives, sets=fitted.sets,
                    focus=tuple(f for f in state.focus if f in objectives))
    return state, context_notes(
        "Rankings", context, used=used, left_out=left_out,
        table_directions=directions_of(opened.table),
        why_no_ranges="it chooses the rows taking part by sets of values only")
