"""Sentences several pages show, worded once."""

from __future__ import annotations

from copa_dash.services.objectives import TWO_OBJECTIVES


def two_objectives(now: str) -> str:
    """The objective-count refusal as a sentence for the page, with what is chosen ``now``.

    >>> two_objectives("none is chosen")
    'Choose at least two objectives: a Pareto front needs something to trade off (none is chosen).'
    """
    return f"{TWO_OBJECTIVES[0].upper()}{TWO_OBJECTIVES[1:]} ({now})."
