"""The posets page's view as a frozen dataclass, and its only URL code."""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlencode

from copa_dash.services.posets import MISSING, MODES, TIES, default_criteria
from copa_dash.ui.common.query import first as _first
from copa_dash.ui.common.query import number as _number
from copa_dash.ui.common.working_context import (
    WorkingContext,
    context_notes,
    directions_of,
    fit_to_table,
)

# what the page's mode asks of the service's ``exact`` (None: exact when its predicted work is
# within the instance's budget, else approximate)
EXACT_OF_MODE = {"auto": None, "exact": True, "approx": False}


@dataclass(frozen=True)
class PosetsState:
    """Everything the page shows is a function of this state (and the dataset)."""

    dataset: str = ""
    method: str = ""
    task: str = ""
    criteria: tuple[str, ...] = ()
    ties: str = "drop"
    missing: str = "drop"
    mode: str = "auto"
    tolerance: float = 0.01
    k: int = 3


def parse_query(query: dict) -> PosetsState:
    """Read the state from a parsed query; malformed values fall back to defaults."""
    ties, missing, mode = (_first(query, "ties", "drop"), _first(query, "missing", "drop"),
                           _first(query, "mode", "auto"))
    return PosetsState(
        dataset=_first(query, "dataset"), method=_first(query, "method"),
        task=_first(query, "task"),
        criteria=tuple(dict.fromkeys(c for c in _first(query, "crit").split("|") if c)),
        ties=ties if ties in TIES else "drop", missing=missing if missing in MISSING else "drop",
        mode=mode if mode in MODES else "auto",
        tolerance=min(0.5, max(0.001, _number(_first(query, "tol"), 0.01))),
        k=int(min(50, max(1, _number(_first(query, "k"), 3)))))


def to_query(state: PosetsState) -> str:
    """The readable query string (without ``?``) that reproduces ``state``."""
    pairs = [("dataset", state.dataset), ("method", state.method), ("task", state.task),
             ("crit", "|".join(state.criteria)), ("ties", state.ties),
             ("missing", state.missing), ("mode", state.mode)]
    if state.mode != "exact":
        pairs.append(("tol", f"{state.tolerance:g}"))
    pairs.append(("k", str(state.k)))
    return urlencode(pairs, safe="|")


def with_defaults(state: PosetsState, opened) -> PosetsState:
    """Fill what the URL left out from the dataset's roles and default view."""
    table = opened.table
    names = list(table.objective_names)
    criteria = tuple(c for c in state.criteria if c in names) or tuple(
        c for c, _ in default_criteria(table, opened.default_view))
    columns = list(table.frame.columns)
    method = state.method if state.method in columns else (table.roles.system or "")
    task = state.task if state.task in columns else (table.roles.task or "")
    return replace(state, dataset=opened.ref, criteria=criteria, method=method, task=task)


def apply_context(state: PosetsState, context: WorkingContext | None, opened):
    """Posets' hook for the working context (``ui/common/working_context``), called before
    :func:`with_defaults`: the context's objectives become the criteria the methods are
    ordered by. Returns the state and the bar's notes, which say that constraints and flipped
    directions have no meaning here (None when the link carried no context)."""
    if context is None:
        return state, None
    fitted, left_out = fit_to_table(context, opened.table, objectives_only=True)
    state = replace(state, criteria=fitted.objective_names or state.criteria)
    return state, context_notes(
        "Posets", context, used=fitted, left_out=left_out,
        table_directions=directions_of(opened.table),
        why_no_constraints="it orders the methods on every task")
