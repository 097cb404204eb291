"""Posets as boolean matrices and as bit rows; the distinct posets of a sample.

A poset on M = {0, ..., n-1} is a strict order given as a boolean (n, n) matrix,
``p[i, j]`` True iff i is above j (a reflexive diagonal is accepted and dropped). The
kernels use n uint64 rows instead: bit j of row i is set iff i is above j (n <= 64).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from .errors import InvalidInputError

MAX_ITEMS = 64          # one uint64 row per element


@dataclass(frozen=True, eq=False)
class DistinctPosets:
    """The distinct posets of a sample, in order of first appearance.

    ``relations`` (D, n, n) bool; ``counts`` (D,) int; ``frequencies`` (D,) = counts / T
    (the empirical measure nu); ``inverse`` (T,): which distinct poset each input is.
    """

    relations: np.ndarray
    counts: np.ndarray
    frequencies: np.ndarray
    inverse: np.ndarray


def as_relations(posets, /, *, name: str = "posets", n_items: int | None = None) -> np.ndarray:
    """Validate strict partial orders; return a new (P, n, n) bool array, diagonal False.

    Parameters
    ----------
    posets : array_like, (P, n, n) or (n, n)
        Booleans or 0/1; a single matrix is read as one poset. The diagonal of each
        matrix must be all False (strict order) or all True (reflexive form, as in the
        paper); it is dropped.
    name : str
        Argument name used in error messages.
    n_items : int, optional
        Required number of elements n.

    Returns
    -------
    ndarray (P, n, n) bool

    Raises
    ------
    InvalidInputError
        Wrong shape, non-0/1 entries, mixed diagonal, a pair in both directions
        (antisymmetry), or i > j > k without i > k (transitivity); the message names
        the matrix and the elements.

    Notes
    -----
    Transitivity is checked as ``(R @ R > 0) <= R``: O(P n^3).

    Examples
    --------
    >>> as_relations([[1, 1], [0, 1]]).astype(int).tolist()    # reflexive a >= b
    [[[0, 1], [0, 0]]]
    """
    try:
        arr = np.array(posets, copy=True)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"'{name}' must be boolean (n, n) matrices: {exc}") from None
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1] != arr.shape[2]:
        raise InvalidInputError(
            f"'{name}' must have shape (count, n, n) or (n, n), but it has shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise InvalidInputError(f"'{name}' must hold at least one poset on at least one element")
    if n_items is not None and arr.shape[1] != n_items:
        raise InvalidInputError(
            f"'{name}' must be on {n_items} elements (like the observed posets), "
            f"but it is on {arr.shape[1]}")
    if arr.shape[1] > MAX_ITEMS:
        raise InvalidInputError(
            f"'{name}' has {arr.shape[1]} elements; at most {MAX_ITEMS} are supported")
    if arr.dtype != bool:
        if not np.issubdtype(arr.dtype, np.number) or not np.isin(arr, (0, 1)).all():
            raise InvalidInputError(f"'{name}' must contain only booleans or 0/1")
        arr = arr.astype(bool)
    n = arr.shape[1]
    diag = arr[:, np.arange(n), np.arange(n)]
    mixed = diag.any(axis=1) & ~diag.all(axis=1)
    if mixed.any():
        raise InvalidInputError(
            f"'{name}[{int(np.argmax(mixed))}]' has a diagonal that is neither all True "
            "(reflexive) nor all False (strict)")
    arr[:, np.arange(n), np.arange(n)] = False
    both = arr & arr.transpose(0, 2, 1)
    if both.any():
        p, i, j = (int(v) for v in np.argwhere(both)[0])
        raise InvalidInputError(
            f"'{name}[{p}]' is not antisymmetric: {i} is above {j} and {j} above {i}")
    as_int = arr.astype(np.int64)
    missing = (np.matmul(as_int, as_int) > 0) & ~arr
    if missing.any():
        p, i, k = (int(v) for v in np.argwhere(missing)[0])
        j = int(np.argmax(arr[p, i] & arr[p, :, k]))
        raise InvalidInputError(
            f"'{name}[{p}]' is not transitive: {i} is above {j} and {j} above {k}, "
            f"but {i} is not above {k}")
    return np.ascontiguousarray(arr)


def pack_rows(relations: np.ndarray, /) -> np.ndarray:
    """(P, n, n) bool -> (P, n) uint64 with bit j of row i set iff i is above j.

    >>> pack_rows(np.array([[[False, True, True], [False] * 3, [False] * 3]])).tolist()
    [[6, 0, 0]]
    """
    n = relations.shape[-1]
    bits = np.left_shift(np.uint64(1), np.arange(n, dtype=np.uint64))
    return np.ascontiguousarray(
        np.bitwise_or.reduce(np.where(relations, bits, np.uint64(0)), axis=-1), dtype=np.uint64)


def distinct_posets(posets, /) -> DistinctPosets:
    """Group a sample of posets into its distinct posets and their frequencies nu.

    Parameters
    ----------
    posets : array_like, (T, n, n) bool
        One strict partial order per task (``p[i, j]``: i is above j).

    Returns
    -------
    DistinctPosets
        Distinct relations in order of first appearance, counts, frequencies and the
        index of each input poset among them.

    Raises
    ------
    InvalidInputError
        If an input is not a partial order (see :func:`as_relations`).

    Examples
    --------
    >>> import numpy as np
    >>> p = np.zeros((3, 2, 2), dtype=bool); p[0, 0, 1] = p[2, 0, 1] = True
    >>> d = distinct_posets(p)
    >>> d.counts.tolist(), d.inverse.tolist()
    ([2, 1], [0, 1, 0])
    """
    rel = as_relations(posets)
    rows = pack_rows(rel)
    _, first, inverse, counts = np.unique(
        rows, axis=0, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    counts = counts[order].astype(np.int64)
    return DistinctPosets(
        relations=rel[first[order]],
        counts=counts,
        frequencies=counts / counts.sum(),
        inverse=rank[inverse.reshape(-1)].astype(np.int64),
    )


def max_ufg_size(n_items: int, /) -> int:
    """Largest possible size of a ufg set of posets on ``n_items`` elements.

    Sets of 3 or more need one distinct pair per member and at most one per unordered
    pair of elements (see Notes of ``copa_dash.core.ufg_depth.ufg_depth``), hence
    max(2, n(n-1)/2).

    >>> max_ufg_size(3), max_ufg_size(11)
    (3, 55)
    """
    return max(2, n_items * (n_items - 1) // 2)


def exact_depth_work(n_distinct: int, n_items: int, /) -> int:
    """Most sets of observed posets the exact ufg depth can examine: every set of 2 up to
    :func:`max_ufg_size` of the ``n_distinct`` distinct posets.

    The enumeration prunes sets that cannot be ufg, so the real work is often far smaller;
    this bound is what a caller can know before starting, and it grows as 2**n_distinct
    (about 2**19 sets took 1.1 s on the bundled bbob table, 2**50 did not end in minutes on
    amlb-2022).

    >>> exact_depth_work(3, 3), exact_depth_work(19, 7), exact_depth_work(50, 10) > 10**14
    (4, 524268, True)
    """
    largest = min(n_distinct, max_ufg_size(n_items))
    return sum(comb(n_distinct, k) for k in range(2, largest + 1))
