"""Which columns of a table get a constraint row on Explore, and which wait in the
"add a constraint on..." list.

A wide upload has hundreds of numeric metadata columns (the fairness Adult/sex table: 200);
a pair of min/max boxes for each made ~650 pattern-matching components that the browser
works through on every objective tick (issue 33, session 15). So a numeric column gets its
boxes only where they are useful: the table's objectives (a brush on the parallel axes lands
in their boxes) and every column that holds a range (from a shared link or a brush); the
other numeric columns are offered, with their observed range, to be added on demand.
Categorical columns keep a set filter when they have few values, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..data.filters import value_label

#: a categorical column with more distinct values than this gets no set filter (unless the
#: view already filters it)
MAX_SET_VALUES = 60


@dataclass(frozen=True)
class NumericColumn:
    """A numeric column and its observed range (NaN left out)."""

    name: str
    low: float
    high: float

    @property
    def observed(self) -> str:
        """``observed 0.1 to 0.9``, four significant digits."""
        return f"observed {self.low:.4g} to {self.high:.4g}"


@dataclass(frozen=True)
class ConstraintColumns:
    """The columns of the constraint panel.

    Attributes
    ----------
    shown : tuple of NumericColumn
        Numeric columns drawn with min/max boxes, in the table's order of candidates.
    offered : tuple of NumericColumn
        The other numeric columns, for the "add a constraint on..." list.
    sets : tuple of (str, tuple of str)
        Categorical columns with a set filter, and their values as the row filter compares
        them (:func:`~copa_dash.data.filters.value_label`), sorted.
    """

    shown: tuple[NumericColumn, ...]
    offered: tuple[NumericColumn, ...]
    sets: tuple[tuple[str, tuple[str, ...]], ...]


def constraint_columns(frame: pd.DataFrame, objectives, others, ranges=(), sets=()
                       ) -> ConstraintColumns:
    """Sort the candidate columns into shown boxes, offered columns and set filters.

    Parameters
    ----------
    frame : DataFrame
        The table's rows.
    objectives : sequence of str
        The table's objective columns: a numeric one always gets its boxes.
    others : sequence of str
        The other candidates (role and metadata columns): a numeric one gets boxes only when
        ``ranges`` constrains it, else it is offered.
    ranges : iterable of (str, low, high)
        The view's range constraints; their columns always get boxes.
    sets : iterable of (str, values)
        The view's set constraints; their columns always get a set filter.

    Columns absent from ``frame`` and numeric columns with no number are left out.

    >>> frame = pd.DataFrame({"acc": [0.5, 0.9], "time": [3.0, 1.0], "seed": [1, 2],
    ...                       "algo": ["a", "b"]})
    >>> found = constraint_columns(frame, ["acc"], ["time", "seed", "algo"],
    ...                            ranges=[("seed", 1, 1)])
    >>> [c.name for c in found.shown], [c.name for c in found.offered], found.sets
    (['acc', 'seed'], ['time'], (('algo', ('a', 'b')),))
    """
    constrained = {name for name, _, _ in ranges}
    filtered = {name for name, _ in sets}
    keep = set(objectives) | constrained
    candidates = dict.fromkeys([*objectives, *others, *filtered, *constrained])
    shown, offered, set_columns = [], [], []
    for column in candidates:
        if column not in frame.columns:
            continue
        series = frame[column]
        if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
            values = tuple(sorted({value_label(v) for v in series.dropna().tolist()}))
            if column in filtered or _sorts_rows(values, int(series.notna().sum())):
                set_columns.append((column, values))
            continue
        found = observed_range(frame, column)
        if found is None:
            continue
        (shown if column in keep else offered).append(found)
    return ConstraintColumns(tuple(shown), tuple(offered), tuple(set_columns))


#: from this many rows, a text column with a different value in every row names the rows
NAMING_ROWS = 20


def _sorts_rows(values: tuple, present: int) -> bool:
    """Whether a set filter on a column with these distinct ``values`` (in ``present`` rows)
    can keep some rows and not others: 2 to :data:`MAX_SET_VALUES` values, not one per row of
    a table of :data:`NAMING_ROWS` or more. The Arena upload drew 29 filters, 10 of them on a
    column with one value (``evaluations_bbh_name``) and one naming every row (``id``), and
    Explore took 1.3 s to draw on a warm visit (0.6-0.7 s without them, load 5 on 2 cores).

    >>> _sorts_rows(("a",), 60), _sorts_rows(("a", "b"), 2), _sorts_rows(tuple("ab"), 60)
    (False, True, True)
    >>> _sorts_rows(tuple(str(i) for i in range(30)), 30)
    False
    """
    if not 2 <= len(values) <= MAX_SET_VALUES:
        return False
    return len(values) < present or present < NAMING_ROWS


def observed_range(frame: pd.DataFrame, column: str) -> NumericColumn | None:
    """``column``'s observed range, None when it is absent or holds no number.

    >>> observed_range(pd.DataFrame({"t": [2.0, None, 5.0]}), "t").observed
    'observed 2 to 5'
    """
    if column not in frame.columns or pd.api.types.is_bool_dtype(frame[column]):
        return None
    numbers = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
    if np.isnan(numbers).all():
        return None
    return NumericColumn(column, float(np.nanmin(numbers)), float(np.nanmax(numbers)))
