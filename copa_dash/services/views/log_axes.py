"""Which axes of the explorer's raw-values view start on a log scale (issue 19).

An objective whose positive values span more than :data:`DECADES` decades (largest over
smallest above 10^2, as the CO2 cost of the Open LLM leaderboard) is squashed against the
axis on a linear scale; such an axis starts on a log scale when the link does not say.
Columns with zero or negative values stay linear (a log axis cannot show them).
"""

from __future__ import annotations

import numpy as np

DECADES = 2.0


def spans_decades(values) -> bool:
    """True when every finite value is positive and max / min exceeds 10^DECADES."""
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    if finite.size < 2 or (finite <= 0).any():
        return False
    return bool(np.log10(finite.max()) - np.log10(finite.min()) > DECADES)


def default_log_axes(table, x: str, y: str) -> tuple[str, ...]:
    """("x", "y", both or neither): the axes whose objective spans more than two decades."""
    return tuple(axis for axis, name in (("x", x), ("y", y))
                 if name in table.objective_names and spans_decades(table.matrix([name])))
