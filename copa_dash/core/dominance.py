"""Pareto dominance: the non-dominated mask and non-dominated sorting (layers).

Row a dominates row b iff, oriented to minimisation, ``a <= b`` in every objective and
``a < b`` in at least one (METHODS.md, "Pareto front"). Equal rows never dominate each
other, so duplicates of a front row are all on the front.
"""

from __future__ import annotations

import numpy as np

from ._kernels import dominance as _kernels
from ._kernels import dominance_layers as _layer_kernels
from .validate import as_points, orient, parse_directions

__all__ = ["nondominated_layers", "nondominated_mask", "oriented_view"]


def oriented_view(points, directions=None, /, *, name: str = "points",
                  min_rows: int = 0) -> np.ndarray:
    """Validate ``points`` and return them min-oriented as C-contiguous float64.

    Same checks and messages as :func:`copa_dash.core.validate.oriented_points`, but a
    float64 C-contiguous input with every objective minimised is returned as is (not
    copied): callers only read it. On a million rows this saves several copies.

    Raises
    ------
    InvalidInputError
        Non-numeric, wrongly shaped, NaN or infinite ``points``; bad ``directions``.
    """
    if (isinstance(points, np.ndarray) and points.dtype == np.float64 and points.ndim == 2
            and points.shape[1] > 0 and points.shape[0] >= min_rows
            and points.flags.c_contiguous and _kernels.all_finite(points)):
        arr = points
    else:
        arr = as_points(points, name=name, min_rows=min_rows)
    if directions is None:  # every objective minimised: nothing to parse (hot path)
        return arr
    maximise = parse_directions(directions, arr.shape[1])
    if maximise.any():
        arr = orient(arr, maximise)
    return arr


def nondominated_mask(points, /, directions=None) -> np.ndarray:
    """Mark the rows that no other row dominates (the Pareto front).

    Parameters
    ----------
    points : array_like, shape (N, K)
        One row per model, one column per objective (a 1-D input is one objective).
    directions : None, "min", "max" or sequence of them, optional
        Per-column direction; None minimises every column.

    Returns
    -------
    ndarray of bool, shape (N,)
        True for the non-dominated rows. Duplicates of a front row are all True.

    Raises
    ------
    InvalidInputError
        If ``points`` is not numeric, not 1-D/2-D, holds NaN or infinite values, or
        ``directions`` has the wrong length or an unknown value.

    Notes
    -----
    ``a`` dominates ``b`` iff ``a'_k <= b'_k`` for all k and ``a'_k < b'_k`` for some k,
    with ``y' = y`` for min and ``-y`` for max objectives. The algorithm depends on the
    data: a block-nested-loops pass with a move-to-front window of about 2 sqrt(N)
    rows (N times a few comparisons when the front is small, as on random data), and,
    when the window overflows, an exact method on the rows it could not discard:
    sort and sweep for K = 2, a sort plus Fenwick-tree sweep for K = 3 (both
    O(N log N), Kung, Luccio and Preparata 1975), and k-d tree orthant queries for
    K >= 4. Memory O(N K).

    Examples
    --------
    >>> nondominated_mask([[1, 2], [2, 1], [2, 2], [1, 2]])
    array([ True,  True, False,  True])
    >>> nondominated_mask([[1, 2], [2, 1], [2, 2]], directions=["max", "max"])
    array([False, False,  True])
    """
    return _kernels.nondominated_mask(oriented_view(points, directions))


def nondominated_layers(points, /, directions=None) -> np.ndarray:
    """Non-dominated sorting: the layer (1 = the front) of every row.

    Parameters
    ----------
    points : array_like, shape (N, K)
        One row per model, one column per objective.
    directions : None, "min", "max" or sequence of them, optional
        Per-column direction; None minimises every column.

    Returns
    -------
    ndarray of int64, shape (N,)
        ``1`` for the front, ``2`` for the front of the remaining rows, and so on.

    Raises
    ------
    InvalidInputError
        As :func:`nondominated_mask`.

    Notes
    -----
    Layer L is the non-dominated set of the rows left after removing layers 1..L-1;
    equivalently, a row's layer is one more than the largest layer among the rows that
    dominate it. K = 2, 3: the first front is peeled with :func:`nondominated_mask`, then
    the other rows are placed in lexicographic order by ENS-BS (Zhang, Tian, Cheng and Jin
    2015, IEEE TEVC 19(2)): binary search for the first layer none of whose rows dominates
    the new row, a test that is O(log N) for K = 2 (the layer's newest row) and K = 3 (a
    2-D staircase per layer), so O(N log N log L) in all. K >= 4, up to 12,000-16,000
    rows: every row at once by dominance-set bitsets (Moreno et al. 2021, IEEE Trans.
    Cybernetics 51(12)): with the distinct rows in lexicographic order, the rows that
    dominate row s are those before it that are <= it in every other objective, an AND
    of one running bitset per objective's sorted order, O(K N^2 / 64) word operations.
    K >= 4 above that: the rows in lexicographic order each ask one k-d tree over the
    other objectives, whose nodes keep the largest layer of the rows already placed, for
    the largest layer below the row (a dominance-maximum form of ENS-NDT, Gustavsson and
    Syberfeldt 2018), O(N K) memory; from 7 objectives and many rows (few, large layers)
    fronts are peeled first instead. The switch points are measured crossovers, see
    :mod:`copa_dash.core._kernels.dominance_layers`.

    Examples
    --------
    >>> nondominated_layers([[1, 1], [2, 2], [3, 3], [1, 3], [3, 1]])
    array([1, 2, 3, 2, 2])
    """
    return _layer_kernels.nondominated_layers(oriented_view(points, directions))
