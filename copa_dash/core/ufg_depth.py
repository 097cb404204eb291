"""Union-free generic (ufg) depth of partial orders (Blocher et al. 2023; App. B of
papers/partial-rankings-of-optimizers-ufg-depth.txt; METHODS.md "Partial rankings").

A poset is a boolean (n, n) matrix, ``p[i, j]`` True iff i is above j (see
:mod:`copa_dash.core.poset_relations`). The depth of p is

    D(p) = sum_{S ufg, p in gamma(S)} prod_{q in S} nu(q) / sum_{S ufg} prod_{q in S} nu(q)

over the sets S of distinct observed posets, nu the empirical frequencies, and
gamma(S) = {posets p : intersection(S) <= p <= union(S)}.

The algorithm (what :func:`ufg_depth` does)
-------------------------------------------
Sets S are built by size, 2, 3, ..., each set by adding a larger index to a kept
set of the previous size. For a set S of distinct posets let I, U be its
intersection and union, and for each member q let B_q = pairs only q has and
A_q = pairs every other member has but q lacks.

- Union-free test. For |S| >= 2, (C2) implies (C1) (if gamma(S) = S it is the
  union of the singletons' closures), so S is ufg iff some poset p in [I, U] lies
  in no gamma(S - q), i.e. for every q, p contains a pair of B_q or lacks a pair
  of A_q. Singletons are never ufg (gamma({p}) = {p}). The kernel decides this
  without listing gamma(S): a depth-first search from p = I that, for a member q
  p does not witness, branches on the pairs of B_q (adding each with its
  transitive closure, rejecting cycles and pairs outside U, and excluding a pair
  from U once its branch failed); at most |S| levels. Greedy passes from I and
  from the witness of S minus its last member usually answer first.
- Pruning. If some member q has A_q and B_q empty, no poset separates gamma(S) from
  gamma(S - q), and the same holds for every superset of S (A_q and B_q only shrink
  as members are added), so the whole branch is skipped. For |S| >= 3 the
  witnesses of distinct members are distinct pairs, and one poset p can use at
  most one of (i, j), (j, i), so a ufg set has at most max(2, n(n-1)/2) members.
- Sure bound. With w(S) = prod nu(q), the sets not yet examined all extend a kept
  ("open") set S by larger indices; their weight is at most
  R = sum over open S of w(S) * (prod_{j > max S} (1 + nu_j) - 1), and
  R_0 = prod_j (1 + nu_j) - 1 - sum_j nu_j is the weight of all sets of size >= 2.
  The unseen ufg weight y and the part x of it whose closure holds p satisfy
  0 <= x <= y <= R, so with N(p), W the weights found, the exact depth
  (N + x) / (W + y) lies in [N / (W + R), (N + R) / (W + R)] and
  |N / W - D(p)| <= R / (W + R). Because w decays like 1 / |S|! for spread-out
  frequencies, small sets settle most of the weight.
- Sampled bound. Draw M sets beyond the open sets with probability w(S) / R (an
  open set with probability proportional to its term of R, then each larger index
  with probability nu_j / (1 + nu_j), conditioned on at least one). With a(p), b
  the fractions that are ufg with p in gamma(S), resp. ufg, x and y are estimated
  by R a(p) and R b. By Hoeffding and a union bound over the P targets and b,
  with probability at least ``confidence`` all estimates are within R eps,
  eps = sqrt(ln(2 (P + 1) / (1 - confidence)) / (2 M)), and then
  |(N + R a(p)) / (W + R b) - D(p)| <= 2 R eps / (W + R b), the reported bound (the
  sure bound and estimate are kept when they are tighter).
- Cost. Per examined set O(|S| n) word operations for the masks, the search (at
  worst exponential in |S|, in practice a few steps) and O((D + Q) n) for the
  closure membership of every target. All sets when exact: at most 2^D.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ._kernels.posets import ufg_level_chunk, ufg_sample_tail
from .errors import CopaError, InvalidInputError
from .poset_relations import as_relations, distinct_posets, max_ufg_size, pack_rows

_TARGET_CALL_SECONDS = 0.05
_MAX_BUFFER_ROWS = 400_000
_MAX_WORKERS = 8
_LEVEL_LIMIT = 400_000      # approximate mode: enumerate a level only below this many sets
_MAX_SAMPLES = 50_000_000


class DepthCancelled(CopaError):
    """The ``cancel`` callable asked to stop; ``partial`` holds the result so far."""

    def __init__(self, message: str, partial: UfgDepthResult):
        super().__init__(message)
        self.partial = partial


@dataclass(frozen=True, eq=False)
class UfgDepthResult:
    """Result of :func:`ufg_depth`.

    Attributes
    ----------
    depths : (D,) depth of each distinct observed poset (order of ``posets``).
    posets, counts, frequencies, inverse : the distinct posets of the input, as
        :func:`copa_dash.core.poset_relations.distinct_posets` returns them.
    observed_depths : (T,) depth of each input poset, ``depths[inverse]``.
    query_depths : (Q,) depth of each query poset (empty without a query).
    n_ufg_sets : number of ufg sets S (subsets of the distinct posets) enumerated.
    ufg_weight : sum over those S of prod nu(q) (the inverse of c_n in Def. B.1).
    exact : True when every subset that can be ufg was examined.
    error_bound : every reported depth is within this distance of the exact one
        (0.0 when exact), surely or with probability ``confidence``; see Notes of
        :func:`ufg_depth`.
    confidence : 1.0 for a sure bound, else the probability of the sampled bound.
    n_samples : sets drawn by the sampled estimate of the remainder (0 if none).
    largest_size : size of the largest ufg set enumerated.
    stop_reason : "complete", "tolerance", "sampled", "time" or "cancelled".
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
    confidence: float
    n_samples: int
    largest_size: int
    stop_reason: str
    seconds: float


def _positive_number(value, name: str, *, upper: float | None = None) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise InvalidInputError(f"'{name}' must be a number, not {value!r}") from None
    if not value > 0 or (upper is not None and not value < upper) or math.isnan(value):
        span = f"in (0, {upper})" if upper is not None else "positive"
        raise InvalidInputError(f"'{name}' must be {span}, but it is {value}")
    return value


class _Run:
    """State of one computation: the enumerated weights and the open prefixes."""

    def __init__(self, distinct, queries, workers, start):
        self.distinct = distinct
        self.rows = pack_rows(distinct.relations)
        self.targets = np.ascontiguousarray(
            np.vstack([self.rows, pack_rows(queries)]), dtype=np.uint64)
        self.nu = np.ascontiguousarray(distinct.frequencies, dtype=np.float64)
        self.m, self.n = self.rows.shape
        self.max_size = min(self.m, max_ufg_size(self.n))
        self.tail = np.ones(self.m + 1)
        for j in range(self.m - 1, -1, -1):
            self.tail[j] = self.tail[j + 1] * (1.0 + self.nu[j])
        self.numer = np.zeros(self.targets.shape[0])
        self.denom, self.n_ufg, self.largest = 0.0, 0, 0
        self.frontier = np.arange(self.m, dtype=np.int64).reshape(self.m, 1)
        self.witness = np.zeros((self.m, self.n + 1), dtype=np.uint64)
        self.masses = self.mass_of(self.frontier)
        self.total_mass = float(self.masses.sum())
        self.workers = workers
        self.pool = ThreadPoolExecutor(workers) if workers > 1 else None
        self.start = start
        self.chunk = 64

    def mass_of(self, prefixes):
        """w(S) * (prod_{j > max S} (1 + nu_j) - 1): the weight of S's extensions."""
        if prefixes.shape[0] == 0:
            return np.zeros(0)
        return np.prod(self.nu[prefixes], axis=1) * (self.tail[prefixes[:, -1] + 1] - 1.0)

    def split(self, count):
        bounds = np.linspace(0, count, min(self.workers, max(count, 1)) + 1).astype(int)
        return list(itertools.pairwise(bounds.tolist()))

    def map(self, fn, pieces):
        if self.pool is None or len(pieces) == 1:
            return [fn(piece) for piece in pieces]
        return list(self.pool.map(fn, pieces))

    def extend(self, lo, hi):
        """Examine the one-larger supersets of frontier rows lo:hi on the threads."""
        size = self.frontier.shape[1]

        def run(bounds):
            a, b = bounds
            numer = np.zeros(self.targets.shape[0])
            out = np.empty(((b - a) * (self.m - 1), size + 1), dtype=np.int64)
            out_witness = np.empty(((b - a) * (self.m - 1), self.n + 1), dtype=np.uint64)
            n_out, denom, n_ufg, open_mass = ufg_level_chunk(
                self.rows, self.nu, self.tail, self.targets,
                np.ascontiguousarray(self.frontier[lo + a:lo + b]),
                np.ascontiguousarray(self.witness[lo + a:lo + b]), self.max_size, numer,
                out, out_witness)
            return out[:n_out], out_witness[:n_out], numer, denom, n_ufg, open_mass

        results = self.map(run, self.split(hi - lo))
        for _, _, numer, denom, n_ufg, _ in results:
            self.numer += numer
            self.denom += denom
            self.n_ufg += n_ufg
            if n_ufg:
                self.largest = size + 1
        return ([r[0] for r in results], [r[1] for r in results],
                sum(r[5] for r in results))

    def sample(self, n_samples, rng):
        """Draw n_samples sets beyond the frontier; return (hits per target, ufg count)."""
        keep = self.masses > 0
        prefixes = np.ascontiguousarray(self.frontier[keep])
        cum = np.ascontiguousarray(np.cumsum(self.masses[keep]))
        pieces = self.split(n_samples)
        seeds = rng.integers(0, 2**31 - 1, size=len(pieces))

        def run(item):
            (a, b), seed = item
            hits = np.zeros(self.targets.shape[0], dtype=np.int64)
            n_ufg = ufg_sample_tail(self.rows, self.nu, self.targets, prefixes, cum,
                                    self.max_size, b - a, int(seed), hits)
            return hits, n_ufg

        results = self.map(run, list(zip(pieces, seeds)))
        return sum(r[0] for r in results), sum(r[1] for r in results)

    def result(self, open_mass, reason, *, sampled=None, confidence=0.95):
        """Depths from the enumerated weights, or with the sampled remainder added."""
        bound = 0.0 if open_mass <= 0 else open_mass / (self.denom + open_mass)
        depth = self.numer / self.denom if self.denom > 0 else np.zeros_like(self.numer)
        conf, n_samples = 1.0, 0
        if sampled is not None:
            hits, n_hit, n_samples = sampled
            eps = math.sqrt(math.log(2 * (self.targets.shape[0] + 1) / (1 - confidence))
                            / (2 * n_samples))
            y_hat = open_mass * n_hit / n_samples
            if self.denom + y_hat > 0:
                sampled_bound = 2 * open_mass * eps / (self.denom + y_hat)
                if sampled_bound < bound:
                    depth = (self.numer + open_mass * hits / n_samples) / (self.denom + y_hat)
                    bound, conf = sampled_bound, confidence
        d = self.distinct
        m = self.m
        return UfgDepthResult(
            depths=depth[:m].copy(), posets=d.relations, counts=d.counts,
            frequencies=d.frequencies, inverse=d.inverse,
            observed_depths=depth[:m][d.inverse], query_depths=depth[m:].copy(),
            n_ufg_sets=int(self.n_ufg), ufg_weight=float(self.denom),
            exact=bound == 0.0, error_bound=float(min(bound, 1.0)), confidence=conf,
            n_samples=int(n_samples), largest_size=int(self.largest), stop_reason=reason,
            seconds=time.perf_counter() - self.start)


def ufg_depth(posets, /, *, query=None, exact: bool = True, tolerance: float = 0.01,
              max_seconds: float | None = None,
              progress: Callable[[float], object] | None = None,
              cancel: Callable[[], bool] | None = None, workers: int | None = None,
              confidence: float = 0.95, rng=None) -> UfgDepthResult:
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
        True: examine every subset that can be ufg. False: enumerate subsets by size
        while a size has at most 400,000 candidate sets and the sure error bound is
        above ``tolerance``; if it still is, estimate the remainder by sampling until
        the sampled bound reaches ``tolerance`` (see Notes).
    tolerance : float
        Target error bound of the approximate mode, in (0, 1).
    max_seconds : float, optional
        Stop after about this long and return what was found, with its error bound
        (``stop_reason`` "time"). Checked between compiled chunks of about 0.05 s.
    progress : callable(float), optional
        Called between chunks with a rough, monotone fraction done: the share of the
        subset weight settled (1 - R / R_0, see Notes), then while sampling the share of
        the samples needed. 1.0 at the end.
    cancel : callable() -> bool, optional
        Polled between chunks; when it returns True, :class:`DepthCancelled` is raised
        with the partial result in its ``partial`` attribute.
    workers : int, optional
        Threads running the compiled kernels side by side (they release the GIL);
        default the number of CPUs, at most 8. Results agree up to float rounding
        (and, when sampling, the split of the random stream).
    confidence : float
        Probability that a sampled error bound holds, in (0, 1).
    rng : numpy.random.Generator, int or None
        Randomness of the sampling (approximate mode only).

    Returns
    -------
    UfgDepthResult

    Raises
    ------
    InvalidInputError
        If a poset is not a partial order, shapes differ, or an option is out of range.
    DepthCancelled
        If ``cancel`` returned True.

    Notes
    -----
    The algorithm, its pruning and its two error bounds (sure and sampled) are
    described in the module's docstring, :mod:`copa_dash.core.ufg_depth`.
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
        tolerance = _positive_number(tolerance, "tolerance", upper=1.0)
        confidence = _positive_number(confidence, "confidence", upper=1.0)
    if max_seconds is not None:
        max_seconds = _positive_number(max_seconds, "max_seconds")
    if workers is not None and (isinstance(workers, (bool, np.bool_))
                                or not isinstance(workers, (int, np.integer)) or workers < 1):
        raise InvalidInputError(f"'workers' must be a positive integer, not {workers!r}")
    workers = min(os.cpu_count() or 1, _MAX_WORKERS) if workers is None else int(workers)
    run = _Run(distinct, queries, workers, start)
    try:
        return _compute(run, exact, tolerance, max_seconds, progress, cancel, confidence,
                        rng)
    finally:
        if run.pool is not None:
            run.pool.shutdown()


def _compute(run, exact, tolerance, max_seconds, progress, cancel, confidence, rng):
    done = [0.0]

    def tick(fraction, open_mass):
        if progress is not None:
            done[0] = max(done[0], min(1.0, fraction))
            progress(done[0])
        if cancel is not None and cancel():
            raise DepthCancelled("ufg depth computation cancelled",
                                 run.result(open_mass, "cancelled"))
        return max_seconds is not None and time.perf_counter() - run.start > max_seconds

    open_now = run.total_mass
    while run.frontier.shape[0] > 0 and run.frontier.shape[1] < run.max_size:
        candidates = int((run.m - 1 - run.frontier[:, -1]).sum())
        if not exact and candidates > _LEVEL_LIMIT:
            break
        remaining = float(run.masses.sum())
        kept, kept_witness, next_mass, pos = [], [], 0.0, 0
        while pos < run.frontier.shape[0]:
            stop = min(run.frontier.shape[0], pos + run.chunk * run.workers)
            began = time.perf_counter()
            part, part_witness, mass = run.extend(pos, stop)
            spent = time.perf_counter() - began
            kept += part
            kept_witness += part_witness
            next_mass += mass
            remaining = max(0.0, remaining - float(run.masses[pos:stop].sum()))
            pos = stop
            open_now = remaining + next_mass if pos < run.frontier.shape[0] else next_mass
            if spent < _TARGET_CALL_SECONDS / 4:
                run.chunk = min(run.chunk * 2, max(1, _MAX_BUFFER_ROWS // run.m))
            elif spent > _TARGET_CALL_SECONDS * 4:
                run.chunk = max(1, run.chunk // 2)
            fraction = 1.0 - open_now / run.total_mass if run.total_mass > 0 else 1.0
            if tick(fraction, open_now) and open_now > 0:
                return run.result(open_now, "time")
        run.frontier = np.concatenate(kept)
        run.witness = np.concatenate(kept_witness)
        run.masses = run.mass_of(run.frontier)
        open_now = float(run.masses.sum())
        if not exact and open_now <= tolerance * (run.denom + open_now):
            tick(1.0, open_now)
            return run.result(open_now, "tolerance" if open_now > 0 else "complete")
    if run.frontier.shape[0] == 0 or run.frontier.shape[1] >= run.max_size or open_now <= 0:
        tick(1.0, 0.0)
        return run.result(0.0, "complete")
    return _sample_remainder(run, open_now, tolerance, confidence, rng, tick)


def _sample_remainder(run, open_mass, tolerance, confidence, rng, tick):
    """Approximate mode past the enumeration: sample the open sets' extensions."""
    rng = np.random.default_rng(rng)
    log_term = math.log(2 * (run.targets.shape[0] + 1) / (1 - confidence))
    hits = np.zeros(run.targets.shape[0], dtype=np.int64)
    n_hit, n_samples, batch = 0, 0, 2048 * run.workers
    while True:
        new_hits, new_hit = run.sample(batch, rng)
        hits += new_hits
        n_hit += new_hit
        n_samples += batch
        result = run.result(open_mass, "sampled", sampled=(hits, n_hit, n_samples),
                            confidence=confidence)
        if result.error_bound <= tolerance or n_samples >= _MAX_SAMPLES:
            tick(1.0, open_mass)
            return result
        # samples needed for 2 R eps / (W + y) <= tolerance at the current estimate of y
        scale = run.denom + open_mass * n_hit / n_samples
        needed = (log_term / 2 * (2 * open_mass / (tolerance * scale)) ** 2
                  if scale > 0 else float(_MAX_SAMPLES))
        if tick(n_samples / max(needed, n_samples), open_mass):
            return run.result(open_mass, "time", sampled=(hits, n_hit, n_samples),
                              confidence=confidence)
        batch = int(min(max(needed - n_samples, batch), 8 * batch, _MAX_SAMPLES - n_samples))
