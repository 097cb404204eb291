"""The systems page's view state and its readable URL query.

``/systems?dataset=fairness-adult-sex&obj=accuracy&obj=di_distance&norm=minmax&sigma=0.1
&show=SVM&show=Feldman-SVM&x=accuracy&y=di_distance&base=SVM&cand=Feldman-SVM&perms=5000
&seed=0`` reproduces the indicator table, radar, fronts and the test's settings (the test
itself runs when asked). Malformed values fall back to defaults, so a hand-edited link never
crashes the page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar
from urllib.parse import urlencode

from copa_dash.services.systems import DEFAULT_PERMUTATIONS
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

NORMALIZATIONS = ("minmax", "cdf")
REF_RULES = ("range", "worst-multiple")
DEFAULT_SHOWN = 5
MAX_PERMUTATIONS = 1_000_000


@dataclass(frozen=True)
class SystemsState(TabbedView):
    """Everything the systems page shows is a function of this state (and the dataset):
    besides the dataset, tab and objectives (:class:`TabbedView`), the indicators' settings,
    the systems shown and the significance test's and power study's settings."""

    TABS: ClassVar[tuple[str, ...]] = ("indicators", "significance")
    normalize: str = "minmax"
    sigma: float = 0.1
    shown: tuple[str, ...] = ()            # systems on the radar and the front plot
    x: str = ""
    y: str = ""
    z: str = ""
    three_d: bool = False
    baseline: tuple[str, ...] = ()
    candidate: tuple[str, ...] = ()
    permutations: int = DEFAULT_PERMUTATIONS
    seed: int = 0
    ref_rule: str = "range"
    power_seeds: int = 5
    power_effect: float = 0.05
    power_noise: float = 0.05
    power_points: int = 1


def _whole(text, default: int, low: int, high: int) -> int:
    return round(_number(text, default, low, high))


def _choice(text: str, allowed, default: str) -> str:
    return text if text in allowed else default


def parse_query(query: dict) -> SystemsState:
    """Read the state from a parsed query (``{key: str | list[str]}``)."""
    return SystemsState(
        **TabbedView.shared_fields(query),
        normalize=_choice(_first(query, "norm"), NORMALIZATIONS, "minmax"),
        sigma=_number(_first(query, "sigma"), 0.1, 1e-6, 10.0),
        shown=tuple(dict.fromkeys(_list(query.get("show")))),
        x=_first(query, "x"), y=_first(query, "y"), z=_first(query, "z"),
        three_d=_first(query, "view") == "3d",
        baseline=tuple(dict.fromkeys(_list(query.get("base")))),
        candidate=tuple(dict.fromkeys(_list(query.get("cand")))),
        permutations=_whole(_first(query, "perms"), DEFAULT_PERMUTATIONS, 1, MAX_PERMUTATIONS),
        seed=_whole(_first(query, "seed"), 0, 0, 2**32 - 1),
        ref_rule=_choice(_first(query, "ref"), REF_RULES, "range"),
        power_seeds=_whole(_first(query, "pseeds"), 5, 1, 200),
        power_effect=_number(_first(query, "peffect"), 0.05, 0.0, 10.0),
        power_noise=_number(_first(query, "pnoise"), 0.05, 0.0, 10.0),
        power_points=_whole(_first(query, "ppoints"), 1, 1, 500),
    )


def to_query(state: SystemsState) -> str:
    """The readable query string (without ``?``) that reproduces ``state``."""
    pairs = [("dataset", state.dataset), ("tab", state.tab)]
    pairs += [("obj", name) for name in state.objectives]
    pairs += [("norm", state.normalize), ("sigma", f"{state.sigma:g}")]
    pairs += [("show", name) for name in state.shown]
    pairs += [(key, value) for key, value in (("x", state.x), ("y", state.y), ("z", state.z))
              if value]
    if state.three_d:
        pairs.append(("view", "3d"))
    pairs += [("base", name) for name in state.baseline]
    pairs += [("cand", name) for name in state.candidate]
    pairs += [("perms", str(state.permutations)), ("seed", str(state.seed)),
              ("ref", state.ref_rule), ("pseeds", str(state.power_seeds)),
              ("peffect", f"{state.power_effect:g}"), ("pnoise", f"{state.power_noise:g}"),
              ("ppoints", str(state.power_points))]
    return urlencode(pairs, safe=":|,")


def with_defaults(state: SystemsState, opened, systems: list[str]) -> SystemsState:
    """Fill what the URL left out from the dataset's default view and its systems."""
    objectives = state.objectives_in(opened, at_least=2)
    shown = tuple(s for s in state.shown if s in systems) or tuple(systems[:DEFAULT_SHOWN])
    baseline = tuple(s for s in state.baseline if s in systems) or tuple(systems[:1])
    candidate = tuple(s for s in state.candidate if s in systems and s not in baseline) or \
        tuple(s for s in systems[1:2] if s not in baseline)
    x = state.x if state.x in objectives else (objectives[0] if objectives else "")
    y = state.y if state.y in objectives and state.y != x else next(
        (o for o in objectives if o != x), "")
    z = state.z if state.z in objectives and state.z not in (x, y) else next(
        (o for o in objectives if o not in (x, y)), "")
    return replace(state, dataset=opened.ref, objectives=objectives, shown=shown,
                   baseline=baseline, candidate=candidate, x=x, y=y, z=z,
                   three_d=state.three_d and bool(z))


def apply_context(state: SystemsState, context: WorkingContext | None, opened):
    """The working context on the systems page (a hook, see ``ui/common/working_context``):
    its objectives, when at least two of them are the dataset's; constraints and flipped
    directions cannot apply here, and the notes say so. Call it before
    :func:`with_defaults`. Returns the state and the notes (None without a context)."""
    if context is None:
        return state, None
    fitted, left_out = fit_to_table(context, opened.table, objectives_only=True)
    if len(fitted.objectives) < 2:
        left_out.append("Systems compares at least two objectives, so it shows the dataset's "
                        "default ones")
        fitted = WorkingContext()
    state = replace(state, objectives=fitted.objective_names or state.objectives)
    return state, context_notes(
        "Systems", context, used=fitted, left_out=left_out,
        table_directions=directions_of(opened.table),
        why_no_constraints="it compares every row of each system")
