"""A range brushed on a parallel-coordinates axis, as a constraint in the objective's own units.

The explorer's parallel coordinates draw every chosen objective in CDF space: a row's height on
an axis is its u, the share of rows better on that objective. A user who drags a range
[u_low, u_high] on an axis means "keep the rows whose u is in there". Since u is a monotone
function of the raw value (non-decreasing in a minimised objective's value, non-increasing in a
maximised one's), the rows with u in the range are exactly the rows whose raw value lies between
the smallest and the largest raw value among them: that interval is the range constraint the
explorer already knows (shown in the constraints list, kept in the link, undone like any other).

The rows a brush reads are those passing the view's OTHER constraints
(:func:`passing_other_constraints`): a range already set on the brushed axis does not count, so
a second drag on that axis can move the range, or widen it again past the rows the first one
kept, and a drag over rows that another constraint leaves out holds no row (the page says so)
rather than setting a range that keeps nothing.
"""

from __future__ import annotations

import math

import numpy as np

from ..data.filters import RowFilter
from .selection import SelectionProblem


def brushed_range(problem: SelectionProblem, objective: int, u_low: float, u_high: float,
                  *, considered: np.ndarray | None = None) -> tuple[float, float] | None:
    """The raw-value range ``(low, high)`` of objective ``objective`` that keeps exactly the
    rows among ``considered`` whose u on it lies in ``[u_low, u_high]`` (either order), or
    None when no such row does.

    Parameters
    ----------
    problem : SelectionProblem
        The view's scored rows: raw values and u per objective.
    objective : int
        The brushed objective's index in ``problem.preferences.objectives``.
    u_low, u_high : float
        The dragged range of u, in either order.
    considered : ndarray of bool, optional
        The scored rows the brush may keep (:func:`passing_other_constraints`); every scored
        row when None.

    Examples
    --------
    >>> from copa_dash.services.selection import Preferences
    >>> raw = np.array([[1.0], [2.0], [3.0], [4.0]])
    >>> u = np.array([[0.0], [0.25], [0.5], [0.75]])
    >>> p = SelectionProblem("d", Preferences(("a",), ("min",)), np.arange(4), np.arange(4),
    ...                      raw, u, np.ones(4, bool), 0, 4)
    >>> brushed_range(p, 0, 0.2, 0.6)
    (2.0, 3.0)
    >>> brushed_range(p, 0, 0.8, 0.9) is None
    True
    >>> brushed_range(p, 0, 0.0, 0.6, considered=np.array([False, True, False, True]))
    (2.0, 2.0)
    """
    low, high = sorted((float(u_low), float(u_high)))
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    u = np.asarray(problem.u, dtype=float)[:, objective]
    raw = np.asarray(problem.raw, dtype=float)[:, objective]
    inside = (u >= low) & (u <= high) & np.isfinite(raw)
    if considered is not None:
        inside &= np.asarray(considered, dtype=bool)
    if not inside.any():
        return None
    return float(raw[inside].min()), float(raw[inside].max())


def brushed_axis(x_low: float, x_high: float, n_axes: int) -> int | None:
    """The axis (0 .. n_axes - 1 on the category axis) a brush of x extent [x_low, x_high]
    was drawn on: the axis inside the extent nearest its middle, None when none is inside.

    >>> brushed_axis(1.8, 2.3, 4), brushed_axis(0.3, 0.6, 4), brushed_axis(-0.1, 3.2, 4)
    (2, None, 2)
    """
    low, high = sorted((float(x_low), float(x_high)))
    inside = [k for k in range(n_axes) if low <= k <= high]
    if not inside:
        return None
    middle = (low + high) / 2
    return min(inside, key=lambda k: (abs(k - middle), k))


def passing_other_constraints(frame, problem: SelectionProblem, row_filter: RowFilter,
                              column: str) -> np.ndarray | None:
    """Which scored rows of ``problem`` pass every constraint of ``row_filter`` except a range
    on ``column`` (the rows a brush on that column reads), None when there is no other
    constraint (every scored row).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table's frame; ``problem.rows`` index it.
    problem : SelectionProblem
        The view's scored rows.
    row_filter : RowFilter
        The view's constraints.
    column : str
        The brushed column.

    Examples
    --------
    >>> import pandas as pd
    >>> from copa_dash.services.selection import Preferences
    >>> frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [5.0, 6.0, 7.0]})
    >>> p = SelectionProblem("d", Preferences(("a", "b"), ("min", "min")), np.arange(3),
    ...                      np.arange(3), frame.to_numpy(), frame.to_numpy(), np.ones(3, bool),
    ...                      0, 3)
    >>> both = RowFilter(ranges={"a": (2.0, 3.0), "b": (None, 6.0)})
    >>> passing_other_constraints(frame, p, both, "a").tolist()
    [True, True, False]
    >>> passing_other_constraints(frame, p, RowFilter(ranges={"a": (2.0, 3.0)}), "a") is None
    True
    """
    others = RowFilter(conditions=row_filter.conditions, sets=row_filter.sets,
                       ranges={c: r for c, r in row_filter.ranges.items() if c != column})
    if others.is_empty:
        return None
    return np.asarray(others.mask(frame), dtype=bool)[np.asarray(problem.rows)]
