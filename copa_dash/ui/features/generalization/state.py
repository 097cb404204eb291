"""The validation -> test page's view as a frozen dataclass, and its only URL code."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from urllib.parse import urlencode

from copa_dash.core.errors import InvalidInputError
from copa_dash.services.generalization import TEST_PREFIX, VAL_PREFIX, label_text
from copa_dash.services.inputs import read_numbers
from copa_dash.ui.common.query import first as _first
from copa_dash.ui.common.working_context import WorkingContext, context_notes


@dataclass(frozen=True)
class GapViewState:
    """Everything the page shows is a function of this state and the dataset."""

    dataset: str = ""
    metrics: tuple[tuple[str, str], ...] = ()   # (metric, "min" | "max")
    ref: tuple[float, ...] = ()                 # empty: the default reference point
    system: str = ""
    budget: str = ""
    seed: str = ""
    a: str = ""
    b: str = ""


def parse_ref(text) -> tuple[float, ...]:
    """``"0,0"`` -> ``(0.0, 0.0)``; empty text -> ``()`` (the default point).

    Raises
    ------
    InvalidInputError
        If a part is not a finite number.
    """
    text = "" if text is None else str(text).strip()
    if not text:
        return ()
    values = read_numbers(text, what="reference point")
    if not all(math.isfinite(v) for v in values):
        raise InvalidInputError(f"reference point {text!r}: every number must be finite")
    return values


def parse_query(query: dict) -> GapViewState:
    """The state from a parsed query; malformed parts fall back to defaults."""
    metrics = []
    raw = query.get("metric") or []
    for item in [raw] if isinstance(raw, str) else raw:
        name, sep, direction = str(item).rpartition(":")
        if sep and name and direction in ("min", "max"):
            metrics.append((name, direction))
    try:
        ref = parse_ref(_first(query, "ref"))
    except InvalidInputError:
        ref = ()
    return GapViewState(dataset=_first(query, "dataset"), metrics=tuple(metrics), ref=ref,
                        **{k: _first(query, k) for k in ("system", "budget", "seed", "a", "b")})


def to_query(state: GapViewState) -> str:
    """The readable query string (without ``?``) that reproduces ``state``."""
    pairs = [("dataset", state.dataset)] + [("metric", f"{m}:{d}") for m, d in state.metrics]
    if state.ref:
        pairs.append(("ref", format_ref(state.ref)))
    pairs += [(k, getattr(state, k)) for k in ("system", "budget", "seed", "a", "b")
              if getattr(state, k)]
    return urlencode(pairs, safe=":|,")


def format_ref(ref) -> str:
    return ",".join(f"{float(v):g}" for v in ref)


def with_defaults(state: GapViewState, report) -> GapViewState:
    """Fill the search and the compared systems from the report when the URL left them out
    (or named ones the report does not have): the first system, the largest budget."""
    systems = [label_text(v) for v in report.systems]
    budgets = [label_text(v) for v in report.budgets]
    seeds = [label_text(v) for v in report.seeds]
    system = state.system if state.system in systems else systems[0]
    budget = state.budget if state.budget in budgets else budgets[-1]
    seed = state.seed if state.seed in seeds else seeds[0]
    a = state.a if state.a in systems else systems[0]
    b = state.b if state.b in systems and state.b != a else next(
        (s for s in systems if s != a), a)
    metrics = tuple(zip(report.spec.metrics, report.spec.directions))
    return replace(state, metrics=metrics, system=system, budget=budget, seed=seed, a=a, b=b)


def apply_context(state: GapViewState, context: WorkingContext | None, choices):
    """The working context on the validation -> test page (a hook, see
    ``ui/common/working_context``): an objective ``val_m`` or ``test_m`` (or ``m`` of a long
    table) chooses the metric ``m`` with the objective's direction; constraints cannot apply
    here. ``choices`` are the page's (metric, direction) pairs. Call it before the report.
    Returns the state and the notes (None without a context)."""
    if context is None:
        return state, None
    known = dict(choices)
    metrics, left_out = {}, []
    for name, direction in context.objectives:
        metric = next((m for m in (name, name.removeprefix(VAL_PREFIX),
                                   name.removeprefix(TEST_PREFIX)) if m in known), None)
        if metric is None:
            left_out.append(f"objective {name}: no validation/test metric of this dataset, "
                            "left out")
        else:
            metrics.setdefault(metric, direction)
    used = WorkingContext(objectives=tuple(metrics.items()))
    state = replace(state, metrics=used.objectives or state.metrics)
    return state, context_notes(
        "Val -> test", context, used=used, left_out=left_out,
        why_no_constraints="it compares every validation and test row of each search")
