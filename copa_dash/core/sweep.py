"""The alpha sweep: which row COPA selects as the focus objectives gain importance.

See METHODS.md, "COPA" (alpha sweep) and the paper's Figs. 1, 4, 5 and B.2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._kernels import sweep as _kernels
from .criteria import check_u, focus_indices, raise_no_candidate
from .errors import InvalidInputError
from .validate import check_mask, check_p

__all__ = ["MAX_ALPHAS", "SweepResult", "alpha_sweep"]

MAX_ALPHAS = 1_000_000


@dataclass(frozen=True)
class SweepResult:
    """Outcome of :func:`alpha_sweep` (arrays are read-only).

    Attributes
    ----------
    alphas : ndarray, shape (A,)
        The grid, ``linspace(0, 1, A)``.
    selected : ndarray of int64, shape (A,)
        Row selected at each alpha.
    rows : ndarray of int64, shape (R,)
        Every row selected somewhere, in the order it is first selected as alpha grows.
    alpha_min, alpha_max : ndarray, shape (R,)
        Smallest and largest grid alpha at which each row of ``rows`` is selected.
    """

    alphas: np.ndarray
    selected: np.ndarray
    rows: np.ndarray
    alpha_min: np.ndarray
    alpha_max: np.ndarray

    @property
    def alpha_mid(self) -> np.ndarray:
        """Mid-point of each row's alpha range (what the plots colour by)."""
        return 0.5 * (self.alpha_min + self.alpha_max)


def alpha_sweep(u, /, focus, *, p, n_alphas: int = 10_000, eligible=None) -> SweepResult:
    """COPA's selection for every alpha of an even grid on [0, 1], in one compiled pass.

    Parameters
    ----------
    u : array_like, shape (N, K)
        CDF values (see :func:`copa_dash.core.ranks.cdf_transform`); rows with a NaN are
        never selected.
    focus : sequence of int
        Column indices of the focus set F; alpha is their share of the importance
        (see :func:`copa_dash.core.criteria.weights_from_alpha`).
    p : float or "inf"
        Exponent of the criterion, in [1, inf].
    n_alphas : int, default 10_000
        Number of grid points A (2 to ``MAX_ALPHAS``); the grid includes 0 and 1.
    eligible : bool array_like, shape (N,), optional
        Rows that may be selected (default: all).

    Returns
    -------
    SweepResult
        The grid, the row selected at each alpha, and each selected row's alpha range.

    Raises
    ------
    InvalidInputError
        If ``u``, ``focus``, ``p``, ``n_alphas`` or ``eligible`` is invalid, or no eligible
        row is free of missing values.

    Notes
    -----
    At every grid point the answer equals ``copa_select(u, weights_from_alpha(K, focus,
    alpha), p=p, eligible=eligible)``, tie-breaks included. With ``a = alpha/|F|`` and
    ``b = (1-alpha)/(K-|F|)``, ``C^p = a^p S_F + b^p S_R`` where ``S_F``, ``S_R`` are the
    sums of ``u^p`` over the focus and the other columns (``max(a M_F, b M_R)`` for
    ``p = inf``). Each row is reduced to these sums, the same at ``p = 8`` and its sum of
    u; rows that another row beats on all of them can never be selected and are dropped
    before the scan (see :mod:`copa_dash.core._kernels.sweep`). Cost:
    O(N K + N log N + N R + A R) for R surviving rows, typically a few dozen.

    A row's alpha range is reported by its smallest and largest alpha. The set where a
    row wins is an interval for ``p = 1`` and ``p = inf`` in exact arithmetic; with other p
    or through tie-breaks it can in pathological cases be several pieces, and then the
    range covers the gaps (``selected`` holds the full answer). If F is empty or holds
    every objective, the weights are equal at every alpha and one row is selected.

    Examples
    --------
    >>> u = [[0.0, 0.75], [0.25, 0.25], [0.75, 0.0]]
    >>> result = alpha_sweep(u, [0], p="inf", n_alphas=5)
    >>> result.selected
    array([2, 2, 1, 0, 0])
    >>> result.rows, result.alpha_min, result.alpha_max
    (array([2, 1, 0]), array([0.  , 0.5 , 0.75]), array([0.25, 0.5 , 1.  ]))

    At alpha = 0.25 rows 1 and 2 tie at C = 0.1875; C at p = 8 prefers row 2.
    """
    arr = check_u(u)
    n_rows, k_count = arr.shape
    chosen = focus_indices(focus, k_count)
    p = check_p(p)
    if isinstance(n_alphas, (bool, np.bool_)) or not isinstance(n_alphas, (int, np.integer)) \
            or not 2 <= n_alphas <= MAX_ALPHAS:
        raise InvalidInputError(
            f"'n_alphas' must be an integer from 2 to {MAX_ALPHAS}, not {n_alphas!r}")
    mask = check_mask(eligible, n_rows, name="eligible")
    alphas = np.linspace(0.0, 1.0, int(n_alphas))
    in_focus = np.zeros(k_count, dtype=bool)
    if chosen.size in (0, k_count):
        in_focus[:] = True
        a = np.full(alphas.shape, 1.0 / k_count)
        b = np.zeros(alphas.shape)
    else:
        in_focus[chosen] = True
        a = alphas / chosen.size
        b = (1.0 - alphas) / (k_count - chosen.size)
    selected = _kernels.alpha_sweep_select(arr, in_focus, a, b, p, mask)
    if selected[0] < 0:
        raise_no_candidate(arr, mask)
    return _summarise(alphas, selected)


def _summarise(alphas: np.ndarray, selected: np.ndarray) -> SweepResult:
    rows, first = np.unique(selected, return_index=True)
    last = selected.size - 1 - np.unique(selected[::-1], return_index=True)[1]
    order = np.argsort(first, kind="stable")
    parts = (alphas, selected, rows[order], alphas[first[order]], alphas[last[order]])
    for part in parts:
        part.setflags(write=False)
    return SweepResult(*parts)
