"""Union-free generic (ufg) depth of partial orders (Blocher et al. 2023; App. B of
papers/partial-rankings-of-optimizers-ufg-depth.txt; METHODS.md "Partial rankings").

A poset is given as a boolean (n, n) matrix, ``p[i, j]`` True iff i is above j (a
strict order; a reflexive diagonal is accepted and ignored). The depth of p is

    D(p) = sum_{S ufg, p in gamma(S)} prod_{q in S} nu(q) / sum_{S ufg} prod_{q in S} nu(q)

over the sets S of distinct observed posets, nu the empirical frequencies, and
gamma(S) = {posets p : intersection(S) <= p <= union(S)}.
"""

from __future__ import annotations

import itertools
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ._kernels.posets import ufg_level_chunk
from .errors import CopaError, InvalidInputError

MAX_ITEMS = 64          # one uint64 row per element
_TARGET_CALL_SECONDS = 0.05
_MAX_BUFFER_ROWS = 400_000
_MAX_WORKERS = 8


class DepthCancelled(CopaError):
    """The ``cancel`` callable asked to stop; ``partial`` holds the result so far."""

    def __init__(self, message: str, partial: UfgDepthResult):
        super().__init__(message)
        self.partial = partial


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


@dataclass(frozen=True, eq=False)
class UfgDepthResult:
    """Result of :func:`ufg_depth`.

    Attributes
    ----------
    depths : (D,) depth of each distinct observed poset (order of ``posets``).
    posets, counts, frequencies, inverse : the :class:`DistinctPosets` of the input.
    observed_depths : (T,) depth of each input poset, ``depths[inverse]``.
    query_depths : (Q,) depth of each query poset (empty without a query).
    n_ufg_sets : number of ufg sets S (subsets of the distinct posets) found.
    ufg_weight : sum over those S of prod nu(q) (the inverse of c_n in Def. B.1).
    exact : True when every subset that can be ufg was examined.
    error_bound : every reported depth is within this distance of the exact one
        (0.0 when exact); see Notes of :func:`ufg_depth`.
    largest_size : size of the largest ufg set found.
    stop_reason : "complete", "tolerance" (approximate mode) or "time".
    seconds : wall time spent.
    """

    depths: np.ndarray
    posets: np.ndarray
    counts: np.ndarray
    frequencies: np.ndarray
    inverse: np.ndarray
    observed_depths: np.ndarray
    query_depths: np.ndarray
    n_ufg_sets: int
    ufg_weight: float
    exact: bool
    error_bound: float
    largest_size: int
    stop_reason: str
    seconds: float


def as_relations(posets, /, *, name: str = "posets", n_items: int | None = None) -> np.ndarray:
    """Validate strict partial orders; return a new (P, n, n) bool array, diagonal False.

    A single (n, n) matrix is read as one poset. Entries must be booleans or 0/1. The
    diagonal of each matrix must be all False (strict order) or all True (reflexive
    form, as in the paper); it is dropped.

    Raises
    ------
    InvalidInputError
        Wrong shape, non-0/1 entries, mixed diagonal, a pair in both directions
        (antisymmetry), or i > j > k without i > k (transitivity); the message names
        the matrix and the elements.
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
    """(P, n, n) bool -> (P, n) uint64 with bit j of row i set iff i is above j."""
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
    pair of elements (see Notes of :func:`ufg_depth`), hence max(2, n(n-1)/2).
    """
    return max(2, n_items * (n_items - 1) // 2)


def _frontier_mass(frontier, nu, tail):
    """w(S) * (tail[max S + 1] - 1) for each sorted row S: the weight of its extensions."""
    weights = np.prod(nu[frontier], axis=1)
    return weights * (tail[frontier[:, -1] + 1] - 1.0)


def _extend_chunk(pool, workers, rows, nu, tail, targets, part, part_witness, max_size):
    """Run the kernel on ``part`` split over ``workers`` threads (the kernel releases
    the GIL); return the kept sets, their witnesses, the numerator increments, the ufg
    weight and count found and the open mass, in the order of ``part``."""
    m, n = rows.shape
    bounds = np.linspace(0, part.shape[0], min(workers, part.shape[0]) + 1).astype(int)

    def run(lo, hi):
        numer = np.zeros(targets.shape[0])
        out = np.empty(((hi - lo) * (m - 1), part.shape[1] + 1), dtype=np.int64)
        out_witness = np.empty(((hi - lo) * (m - 1), n + 1), dtype=np.uint64)
        n_out, denom, n_ufg, open_mass = ufg_level_chunk(
            rows, nu, tail, targets, np.ascontiguousarray(part[lo:hi]),
            np.ascontiguousarray(part_witness[lo:hi]), max_size, numer, out, out_witness)
        return out[:n_out], out_witness[:n_out], numer, denom, n_ufg, open_mass

    pieces = list(itertools.pairwise(bounds.tolist()))
    if pool is None or len(pieces) == 1:
        results = [run(lo, hi) for lo, hi in pieces]
    else:
        results = list(pool.map(lambda b: run(*b), pieces))
    return (np.concatenate([r[0] for r in results]), np.concatenate([r[1] for r in results]),
            sum(r[2] for r in results), sum(r[3] for r in results),
            sum(r[4] for r in results), sum(r[5] for r in results))


def ufg_depth(posets, /, *, query=None, exact: bool = True, tolerance: float = 0.01,
              max_seconds: float | None = None,
              progress: Callable[[float], object] | None = None,
              cancel: Callable[[], bool] | None = None,
              workers: int | None = None) -> UfgDepthResult:
    """Empirical ufg depth (Def. B.1) of the observed posets and of optional queries.

    Parameters
    ----------
    posets : array_like, (T, n, n) bool
        The observed posets, one per task, duplicates allowed (``p[i, j]``: i is above
        j). n <= 64.
    query : array_like, (Q, n, n) or (n, n) bool, optional
        Further posets on the same elements whose depth is wanted (need not be
        observed).
    exact : bool
        True: examine every subset that can be ufg. False: stop as soon as the error
        bound is at most ``tolerance``.
    tolerance : float
        Target error bound of the approximate mode, in (0, 1).
    max_seconds : float, optional
        Stop after about this long and return what was found, with its error bound
        (``exact`` False, ``stop_reason`` "time"). Checked between compiled chunks of
        about 0.05 s.
    progress : callable(float), optional
        Called between chunks with the fraction of the total subset weight settled,
        1 - R / R_0 (see Notes); monotone, 1.0 at the end. A rough guide to time only.
    cancel : callable() -> bool, optional
        Polled between chunks; when it returns True, :class:`DepthCancelled` is raised
        with the partial result in its ``partial`` attribute.
    workers : int, optional
        Threads running the compiled kernel side by side (it releases the GIL); default
        the number of CPUs, at most 8. Results agree up to float summation order.

    Returns
    -------
    UfgDepthResult

    Raises
    ------
    InvalidInputError
        If a poset is not a partial order, shapes differ, or ``tolerance`` or
        ``max_seconds`` are out of range.
    DepthCancelled
        If ``cancel`` returned True.

    Notes
    -----
    Sets S are built by size, 2, 3, ..., each set by adding a larger index to a kept
    set of the previous size. For a set S of distinct posets let I, U be its
    intersection and union, and for each member q let B_q = pairs only q has and
    A_q = pairs every other member has but q lacks.

    - Union-free test. For |S| >= 2, (C2) implies (C1) (if gamma(S) = S it is the
      union of the singletons' closures), so S is ufg iff some poset p in [I, U] lies
      in no gamma(S - q), i.e. for every q, p contains a pair of B_q or lacks a pair
      of A_q. Singletons are never ufg (gamma({p}) = {p}). The kernel decides this
      without listing gamma(S): a depth-first search that starts from p = I and adds
      pairs of B_q (with transitive closure, rejecting cycles and pairs outside U) for
      a member q that p does not yet witness; at most |S| levels.
    - Pruning. If some member q has A_q and B_q empty, no poset separates gamma(S) from
      gamma(S - q), and the same holds for every superset of S (A_q and B_q only shrink
      as members are added), so the whole branch is skipped. For |S| >= 3 the
      witnesses of distinct members are distinct pairs, and one poset p can use at
      most one of (i, j), (j, i), so a ufg set has at most max(2, n(n-1)/2) members.
    - Weights. With w(S) = prod nu(q), the sets not yet examined all extend a kept
      set S by larger indices; their weight is at most
      R = sum over kept S of w(S) * (prod_{j > max S} (1 + nu_j) - 1), and
      R_0 = prod_j (1 + nu_j) - 1 - sum_j nu_j is the weight of all sets of size >= 2.
      The unseen ufg weight y and the part x of it whose closure holds p satisfy
      0 <= x <= y <= R, so with N(p), W the weights found, the exact depth
      (N + x) / (W + y) lies in [N / (W + R), (N + R) / (W + R)] and
      |N / W - D(p)| <= R / (W + R) = ``error_bound``. Because w decays like
      1 / |S|! for spread-out frequencies, small sets settle most of the weight.
    - Cost. Per examined set O(|S| n) word operations for the masks, the search (at
      worst exponential in |S|, in practice a few steps) and O((D + Q) n) for the
      closure membership of every target. All sets when exact: at most 2^D.
    If no ufg set exists (e.g. a single distinct poset), every depth is 0 (Def. B.1).

    Examples
    --------
    Example B.2 of the paper (SGD = 0, Momentum = 1, Adam = 2; p[i, j]: i above j):

    >>> import numpy as np
    >>> p = np.zeros((3, 3, 3), dtype=bool)
    >>> p[0, 1, 0] = True                              # p1: Momentum above SGD
    >>> p[1, 2, 0] = True                              # p2: Adam above SGD
    >>> p[2, 2, 0] = p[2, 2, 1] = p[2, 0, 1] = True    # p3: Adam > SGD > Momentum
    >>> res = ufg_depth(p)
    >>> res.n_ufg_sets, res.depths.round(4).tolist()
    (3, [0.6667, 1.0, 0.6667])

    The three pairs are the ufg sets, as the paper says; p2 is contained in p3, so it
    lies in gamma({p1, p3}) too and gets depth 1 (the paper's text says 2/3 for all).
    """
    start = time.perf_counter()
    rel = as_relations(posets, name="posets")
    n = rel.shape[1]
    distinct = distinct_posets(rel)
    queries = (np.zeros((0, n, n), dtype=bool) if query is None
               else as_relations(query, name="query", n_items=n))
    if not exact:
        try:
            tolerance = float(tolerance)
        except (TypeError, ValueError):
            raise InvalidInputError(f"'tolerance' must be a number, not {tolerance!r}") from None
        if not 0.0 < tolerance < 1.0:
            raise InvalidInputError(f"'tolerance' must be in (0, 1), but it is {tolerance}")
    if workers is not None and (isinstance(workers, (bool, np.bool_))
                                or not isinstance(workers, (int, np.integer)) or workers < 1):
        raise InvalidInputError(f"'workers' must be a positive integer, not {workers!r}")
    if max_seconds is not None:
        try:
            max_seconds = float(max_seconds)
        except (TypeError, ValueError):
            raise InvalidInputError(
                f"'max_seconds' must be a number, not {max_seconds!r}") from None
        if not max_seconds > 0:
            raise InvalidInputError(f"'max_seconds' must be positive, but it is {max_seconds}")

    rows = pack_rows(distinct.relations)
    targets = np.ascontiguousarray(np.vstack([rows, pack_rows(queries)]), dtype=np.uint64)
    nu = np.ascontiguousarray(distinct.frequencies, dtype=np.float64)
    m = rows.shape[0]
    max_size = min(m, max_ufg_size(n))
    tail = np.ones(m + 1)
    for j in range(m - 1, -1, -1):
        tail[j] = tail[j + 1] * (1.0 + nu[j])

    numer = np.zeros(targets.shape[0])
    state = {"denom": 0.0, "n_ufg": 0, "largest": 0}
    frontier = np.arange(m, dtype=np.int64).reshape(m, 1)
    witness = np.zeros((m, n + 1), dtype=np.uint64)
    masses = _frontier_mass(frontier, nu, tail) if m > 1 else np.zeros(m)
    total_mass = float(masses.sum())
    chunk = 64
    reason = "complete"

    def result(open_mass: float, stop_reason: str) -> UfgDepthResult:
        denom = state["denom"]
        depth = numer / denom if denom > 0 else np.zeros_like(numer)
        bound = 0.0 if open_mass <= 0 else open_mass / (denom + open_mass)
        return UfgDepthResult(
            depths=depth[:m].copy(), posets=distinct.relations, counts=distinct.counts,
            frequencies=distinct.frequencies, inverse=distinct.inverse,
            observed_depths=depth[:m][distinct.inverse], query_depths=depth[m:].copy(),
            n_ufg_sets=int(state["n_ufg"]), ufg_weight=float(denom),
            exact=bound == 0.0, error_bound=float(bound), largest_size=int(state["largest"]),
            stop_reason=stop_reason, seconds=time.perf_counter() - start)

    workers = max(1, min(os.cpu_count() or 1, _MAX_WORKERS) if workers is None else workers)
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    try:
        size = 1
        while frontier.shape[0] > 0 and size < max_size:
            remaining = float(masses.sum())
            next_parts, next_witness, next_mass = [], [], 0.0
            pos = 0
            while pos < frontier.shape[0]:
                stop = min(frontier.shape[0], pos + chunk * workers)
                tick = time.perf_counter()
                kept, kept_witness, numer_add, denom, n_ufg, open_mass = _extend_chunk(
                    pool, workers, rows, nu, tail, targets, frontier[pos:stop],
                    witness[pos:stop], max_size)
                spent = time.perf_counter() - tick
                numer += numer_add
                state["denom"] += denom
                state["n_ufg"] += n_ufg
                if n_ufg:
                    state["largest"] = size + 1
                next_parts.append(kept)
                next_witness.append(kept_witness)
                next_mass += open_mass
                remaining = max(0.0, remaining - float(masses[pos:stop].sum()))
                pos = stop
                open_now = remaining + next_mass if pos < frontier.shape[0] else next_mass
                if spent < _TARGET_CALL_SECONDS / 4:
                    chunk = min(chunk * 2, max(1, _MAX_BUFFER_ROWS // max(m, 1)))
                elif spent > _TARGET_CALL_SECONDS * 4:
                    chunk = max(1, chunk // 2)
                if progress is not None and total_mass > 0:
                    progress(min(1.0, max(0.0, 1.0 - open_now / total_mass)))
                if cancel is not None and cancel():
                    raise DepthCancelled("ufg depth computation cancelled",
                                         result(open_now, "cancelled"))
                if not exact and open_now <= tolerance * (state["denom"] + open_now):
                    return result(open_now, "tolerance")
                if max_seconds is not None and time.perf_counter() - start > max_seconds \
                        and open_now > 0:
                    return result(open_now, "time")
            frontier = (np.concatenate(next_parts) if next_parts
                        else np.zeros((0, size + 1), dtype=np.int64))
            witness = (np.concatenate(next_witness) if next_witness
                       else np.zeros((0, n + 1), dtype=np.uint64))
            masses = _frontier_mass(frontier, nu, tail)
            size += 1
    finally:
        if pool is not None:
            pool.shutdown()
    if progress is not None:
        progress(1.0)
    return result(0.0, reason)
