"""Between the explorer's controls, its URL state and the selection service's inputs."""

from __future__ import annotations

import math

from copa_dash.services.inputs import RowFilter, read_number
from copa_dash.services.selection import Preferences
from copa_dash.ui.features.explore.state import P_STOPS, ExploreState, format_p, nearest_p_stop


def _number(value) -> float | None:
    return read_number(value, finite=True)


def _p(text) -> float:
    raw = str(text if text is not None else "").strip()
    return read_number(raw, math.nan) if raw else math.inf


def p_from_controls(box_text, stop_index, box_entered: bool) -> float:
    """The p the view uses, from the p box's text and the p slider's stop.

    The two follow each other in the view's own callback (:func:`p_controls_sync`), so a
    request can carry a box that has not caught up: after a slider move, or when a reply
    that would have updated it was dropped because another control moved first. The slider
    wins unless the box was what the user just entered, or it already names a p at the
    slider's stop (a typed 2.2 stays while the slider shows 2). The box's p is NaN when it is
    not a number (the page says what to type).
    """
    typed = _p(box_text)
    if not box_entered and _valid_stop(stop_index) and (
            math.isnan(typed) or nearest_p_stop(typed) != stop_index):
        return P_STOPS[stop_index]
    return typed


def p_controls_sync(box_text, stop_index, box_entered: bool):
    """How the p box and the p slider follow each other: ``(box text, slider stop)``, each
    None when it stays.

    Enter in the box, or leaving it, moves the slider to the stop nearest the typed p
    (:func:`~.state.nearest_p_stop`; an empty box is inf, as in the view); text that is not a
    p of 1 or more moves nothing. Any other change writes the slider's p into the box unless
    the box already names a p at that stop (a typed 1.4 stays when the slider is at 1.5).
    """
    typed = _p(box_text)
    if box_entered:
        if math.isnan(typed) or typed < 1:
            return None, None
        nearest = nearest_p_stop(typed)
        return None, (nearest if nearest != stop_index else None)
    if _valid_stop(stop_index) and (math.isnan(typed) or nearest_p_stop(typed) != stop_index):
        return format_p(P_STOPS[stop_index]), None
    return None, None


def _valid_stop(stop_index) -> bool:
    return isinstance(stop_index, int) and 0 <= stop_index < len(P_STOPS)


def state_from_controls(*, objectives, directions, mode, focus, alpha, weights, p, population,
                        range_min, range_max, sets, axes, x, y, log, compare, dataset,
                        objective_ids, weight_ids, range_ids, set_ids, choose="") -> ExploreState:
    """Collect the explorer's control values into an :class:`ExploreState`."""
    chosen = []
    for ident, values, direction in zip(objective_ids, objectives, directions):
        if values:
            chosen.append((ident["column"], direction or "min"))
    names = [n for n, _ in chosen]
    weight_pairs = ()
    if mode == "weights":
        weight_pairs = tuple((i["column"], _number(w) or 0.0)
                             for i, w in zip(weight_ids, weights) if i["column"] in names)
    ranges = tuple((i["column"], _number(lo), _number(hi))
                   for i, lo, hi in zip(range_ids, range_min, range_max)
                   if _number(lo) is not None or _number(hi) is not None)
    value_sets = tuple((i["column"], tuple(v)) for i, v in zip(set_ids, sets) if v)
    focus = tuple(f for f in (focus or []) if f in names)
    if not focus and names:  # the focus objective was unticked: the first one takes over
        focus = (names[0],)
    x = x if x in names else (focus[0] if focus else "")
    y = y if y in names and y != x else next((n for n in names if n != x), x)
    alpha = min(1.0, max(0.0, _number(alpha) or 0.0))  # the slider's number box allows any value
    return ExploreState(
        dataset=dataset or "", objectives=tuple(chosen), focus=focus, alpha=alpha,
        weights=weight_pairs, p=_p(p), population=population or "all", ranges=ranges,
        sets=value_sets, axes=axes or "raw", x=x, y=y,
        log=tuple(a for a in ("x", "y") if a in (log or [])), compare=bool(compare),
        choose=choose or "")


def preferences_and_filter(state: ExploreState, table=None) -> tuple[Preferences, RowFilter]:
    """The selection service's inputs for ``state`` (its
    :meth:`~copa_dash.services.views.explore.ExploreView.preferences` and ``row_filter``).

    Raises
    ------
    InvalidInputError
        If p is not a number >= 1, or the weights are all zero.
    """
    return state.preferences(), state.row_filter()
