"""Hypervolume: exact (any K), Monte-Carlo estimate, automatic choice, reference point.

The hypervolume of a set of rows w.r.t. a reference point r is the volume of the region
that the rows dominate and that dominates r (METHODS.md, "Hypervolume"). Everything is
oriented to minimisation first; rows that do not strictly dominate r add 0.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import moocore  # the one place the core uses moocore: its HV4D+-based recursion in C, K = 4..7
import numpy as np

from ._kernels import hypervolume as _kernels
from ._kernels import hypervolume_qhv as _qhv_kernels
from ._kernels import hypervolume_wfg as _wfg_kernels
from .dominance import oriented_view
from .errors import InvalidInputError
from .ranks import u_interval
from .validate import check_non_negative, check_ref_point, parse_directions

try:  # moocore's C entry point without its argument conversion (we validate once)
    from moocore import _moocore as moocore_private
except ImportError:  # pragma: no cover - layout of another moocore release
    moocore_private = None
# Looked up once here, not on every call (the 4-D hot path is a few microseconds).
_MOOCORE_HV_INNER = getattr(moocore_private, "_hypervolume", None)

__all__ = [
    "HypervolumeEstimate",
    "default_reference_point",
    "exact_method",
    "hypervolume",
    "hypervolume_auto",
    "hypervolume_mc",
]

_SAMPLE_CHUNK = 1 << 16
# Cost of an exact K >= 4 hypervolume of n distinct front rows: (seconds at 100 rows, growth
# exponent in n) of ``t = t100 * (n / 100)^e``, fitted by ``benchmarks/bench_hv_cost.py``
# (least squares in log-log over the sizes of 10 ms to a few seconds, front sizes growing
# by sqrt(2); median CPU time of 1-7 calls of ``hypervolume``, so of the method
# ``exact_method`` picks) on fronts on the positive unit sphere, the slow case at a given
# front size. K = 4, 5 (moocore): measured 2026-11-25 21:33 UTC (load 2.9 per CPU). K = 6-10
# re-measured 2026-11-28 05:11-05:13 UTC with the QHV-II kernel (``--k 6 7 8 9 10``, load
# 2.8 per CPU before and 2.3 after on 2 shared CPUs, 122 s): measured / fitted 0.79-1.2 from
# 10 ms to 2.3 s on sphere fronts; random fronts far below the fit (the probe of
# ``hypervolume_auto`` finds those). The first QHV-II fit (before its 3-4-row closed forms)
# predicted 1.3-4x more, the WFG-era table more still.
# 0.5 s at about 32,000 rows at 4-D, 5,800 at 5-D, 5,000 at 6-D, 1,000 at 7-D, 330 at 8-D,
# 160 at 9-D, 100 at 10-D.
_EXACT_COST = {4: (2.89e-5, 1.69), 5: (1.18e-4, 2.06), 6: (2.84e-3, 1.32), 7: (9.98e-3, 1.70),
               8: (3.26e-2, 2.31), 9: (0.132, 2.90), 10: (0.473, 3.50)}
# The probe of ``hypervolume_auto`` (``_probed_cost_seconds``): its subsets of the front
# grow from this many rows while the next is predicted to take at most this share of the
# budget.
_PROBE_SHARE = 0.125
_PROBE_MIN_ROWS = 16
_PROBE_MIN_SECONDS = 0.002
# Which exact method for K >= 4, by the measured crossovers (CPU time, sphere fronts, the
# slow case; docs/benchmarks.md, "Hypervolume, 4 to 10 objectives"): moocore's recursion
# (HV4D+ base case, O(n^(K-2))) at every size for K = 4, 5 (None) and below this many front
# rows at K = 6, 7 (QHV-II 0.87 of it at 6-D x 100, 0.97 at 7-D x 40); the QHV-II kernel
# above; from K = 8 the WFG kernel below _QHV_FROM_ROWS rows (QHV-II's stack costs more
# than it saves on 8-D x 20, 1.23 of WFG; 1.0 at 30 rows) and QHV-II from there.
_MOOCORE_BELOW_ROWS = {4: None, 5: None, 6: 100, 7: 40}
_QHV_FROM_ROWS = 30


@dataclass(frozen=True)
class HypervolumeEstimate:
    """A hypervolume value with its confidence interval.

    ``exact`` is True when ``value`` was computed exactly (then ``ci_low == ci_high ==
    value`` and ``n_samples == 0``), False for a Monte-Carlo estimate. ``method`` names
    what computed it: ``"hv2d"``, ``"hv3d"``, ``"moocore"`` (its HV4D+-based recursion),
    ``"qhv"`` (the compiled QHV-II kernel), ``"wfg"`` (the compiled WFG kernel), ``"trivial"`` (fewer than two front rows) or
    ``"monte-carlo"``.
    """

    value: float
    ci_low: float
    ci_high: float
    n_samples: int
    exact: bool = False
    method: str = "monte-carlo"


def _oriented_problem(points, ref, directions):
    """Min-oriented rows and reference point, validated."""
    y = oriented_view(points, directions)
    k = y.shape[1]
    r = check_ref_point(ref, k)
    if directions is not None:
        maximise = parse_directions(directions, k)
        r[maximise] *= -1.0
    return y, r


def exact_method(n_front: int, n_objectives: int) -> str:
    """Name of the exact method :func:`hypervolume` uses for a front of this size.

    ``"trivial"`` (fewer than two rows or one objective), ``"hv2d"``, ``"hv3d"``;
    for K >= 4 the method measured fastest on sphere fronts of that size (CPU time,
    ``benchmarks/bench_hv_highdim.py``): ``"moocore"`` (its HV4D+-based recursion) at
    K = 4, 5 and below 100 rows at K = 6 / 40 rows at K = 7, ``"wfg"`` below 30 rows from
    K = 8, and the QHV-II kernel (``"qhv"``) otherwise.

    Examples
    --------
    >>> exact_method(1000, 5), exact_method(300, 7), exact_method(20, 9)
    ('moocore', 'qhv', 'wfg')
    """
    if n_objectives <= 1 or n_front <= 1:
        return "trivial"
    if n_objectives <= 3:
        return f"hv{n_objectives}d"
    moocore_below = _MOOCORE_BELOW_ROWS.get(n_objectives, 0)
    if moocore_below is None or n_front < moocore_below:
        return "moocore"
    if n_front < _QHV_FROM_ROWS:
        return "wfg"
    return "qhv"


def _exact_front(front: np.ndarray, r: np.ndarray) -> tuple[float, str]:
    """Exact volume of unique non-dominated rows inside ``r`` (validated), and the method.

    No checks here: the public functions validate once, so the 4-D and 5-D case goes
    straight to moocore's C entry point (its public wrapper re-converts and re-checks).
    """
    n, k = front.shape
    method = exact_method(n, k)
    if n == 0:
        return 0.0, method
    if k == 1 or n == 1:
        return float(np.prod(r - front[0])), method
    if k <= 3:
        return float(_kernels.hypervolume(front, r)), method
    if method == "moocore":
        return float(_moocore_hv(front, r)), method
    if method == "qhv":
        return float(_qhv_kernels.hv_qhv(front, r)), method
    return float(_wfg_kernels.hv_wfg(front, r)), method


def _moocore_hv(front: np.ndarray, r: np.ndarray) -> float:
    if _MOOCORE_HV_INNER is None:  # a moocore release without the private entry point
        return moocore.hypervolume(front, ref=r)
    return _MOOCORE_HV_INNER(front, r)


def _exact(y: np.ndarray, r: np.ndarray) -> float:
    k = y.shape[1]
    if k == 1:
        inside = y[y[:, 0] < r[0], 0]
        return float(r[0] - inside.min()) if inside.size else 0.0
    if k <= 3:
        return float(_kernels.hypervolume(y, r))
    if _MOOCORE_BELOW_ROWS.get(k, 0) is None:  # moocore whatever the size: it filters rows itself
        return float(_moocore_hv(y, r)) if y.shape[0] else 0.0
    return _exact_front(_kernels.unique_front(_kernels.inside_rows(y, r)), r)[0]


def hypervolume(points, /, ref, *, directions=None) -> float:
    """Exact hypervolume of ``points`` with respect to ``ref``.

    Parameters
    ----------
    points : array_like, shape (N, K)
        One row per model, one column per objective (1-D means one objective).
    ref : array_like, shape (K,)
        Reference point in the objectives' own units and directions.
    directions : None, "min", "max" or sequence of them, optional
        Per-column direction; None minimises every column.

    Returns
    -------
    float
        The volume; 0.0 for no rows or when no row strictly dominates ``ref``.

    Raises
    ------
    InvalidInputError
        Bad ``points`` (NaN, infinite, not numeric), ``ref`` of the wrong length or not
        finite, bad ``directions``.

    Notes
    -----
    ``HV = lambda( union_i [y'_i, r'] )`` over the rows with ``y'_i < r'`` in every
    objective (Lebesgue measure; ``'`` is min-oriented). K = 2: sort and sweep,
    O(N log N). K = 3: the HV3D sweep on the third objective with a 2-D staircase
    (Beume, Fonseca, Lopez-Ibanez, Paquete and Vahrenhold 2009), O(N log N) searches.
    K >= 4: the distinct non-dominated rows inside the box, then moocore's recursion
    with the HV4D+ base case (K = 4, 5, and small fronts at K = 6, 7; O(N^(K-2))), the
    compiled QHV-II kernel (Jaszkiewicz 2018: count the largest box, split the rest of
    the space into K disjoint boxes and recurse on the rows reaching each;
    :mod:`copa_dash.core._kernels.hypervolume_qhv`) for larger fronts from K = 6, or the
    compiled WFG kernel for fronts under 30 rows from K = 8, whichever was measured faster
    (:func:`exact_method`). Exponential in K in general (the problem is #P-hard). The
    slower compiled twin ``copa_dash.core._kernels.hypervolume.hv_slices`` and the plain
    recursion ``copa_dash.core._reference.hypervolume.hypervolume_qhv`` check them in the
    tests.

    Examples
    --------
    >>> hypervolume([[1, 2], [2, 1]], ref=[3, 3])
    3.0
    >>> hypervolume([[1, 2], [2, 1]], ref=[0, 0], directions="max")
    3.0
    """
    y, r = _oriented_problem(points, ref, directions)
    return _exact(y, r)


def _box_and_front(y, r):
    front = _kernels.unique_front(_kernels.inside_rows(y, r))
    ideal = front.min(axis=0) if front.shape[0] else r.copy()
    return front, ideal


def hypervolume_mc(points, /, ref, *, directions=None, n_samples: int = 100_000, rng=None,
                   confidence: float = 0.95) -> HypervolumeEstimate:
    """Monte-Carlo estimate of the hypervolume with a Wilson confidence interval.

    Parameters
    ----------
    points, ref, directions
        As in :func:`hypervolume`.
    n_samples : int, default 100_000
        Number of uniform samples in the box ``[ideal, ref]``.
    rng : numpy.random.Generator, int or None
        Source of randomness (an int is a seed).
    confidence : float, default 0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    HypervolumeEstimate
        ``value`` = box volume times the dominated fraction, ``ci_low``/``ci_high`` the
        Wilson interval scaled by the box volume, ``exact=False`` (``True``, with no
        sampling, when fewer than two distinct front rows make the answer trivial).

    Raises
    ------
    InvalidInputError
        As :func:`hypervolume`, and for ``n_samples < 1`` or ``confidence`` outside (0, 1).

    Notes
    -----
    With V the volume of the box between the ideal point of the rows inside ``ref`` and
    ``ref``, and c of n samples dominated (k-d tree query per sample, compiled),
    ``HV ~ V c / n``; the Wilson score interval for c / n (z the normal quantile)
    ``(p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`` is scaled by V.
    Standard error ``V sqrt(p(1-p)/n)``; cost O(n log m) for m front rows.

    Examples
    --------
    >>> est = hypervolume_mc([[0, 1], [1, 0]], ref=[2, 2], n_samples=20_000, rng=1)
    >>> est.ci_low < 3.0 < est.ci_high and abs(est.value - 3.0) < 0.1
    True
    """
    y, r = _oriented_problem(points, ref, directions)
    n_samples = _check_positive_int(n_samples, "n_samples")
    confidence = _check_confidence(confidence)
    front, ideal = _box_and_front(y, r)
    if front.shape[0] < 2:
        value = float(np.prod(r - front[0])) if front.shape[0] else 0.0
        return HypervolumeEstimate(value, value, value, 0, exact=True, method="trivial")
    generator = np.random.default_rng(rng)
    width = r - ideal
    box = float(np.prod(width))
    hits = 0
    done = 0
    while done < n_samples:
        size = min(_SAMPLE_CHUNK, n_samples - done)
        samples = ideal + generator.random((size, r.shape[0])) * width
        hits += int(_kernels.count_dominated_samples(front, np.ascontiguousarray(samples)))
        done += size
    low, high = _wilson_interval(hits, n_samples, confidence)
    return HypervolumeEstimate(box * hits / n_samples, box * low, box * high, n_samples)


def _wilson_interval(hits: int, n: int, confidence: float) -> tuple[float, float]:
    # the share of hits is a binomial proportion: the same Wilson score interval as u's
    low, high = u_interval(hits / n, n, confidence=confidence)
    return float(low), float(high)


def exact_cost_seconds(n_front: int, n_objectives: int) -> float:
    """Seconds an exact hypervolume of ``n_front`` front rows takes on a hard front.

    K <= 3 is O(n log n) (microseconds per row); K = 4..10 follow the power laws
    ``t100 * (n / 100)^e`` measured on sphere fronts (``_EXACT_COST``, see there for when
    and how); beyond 10 objectives the 9 -> 10 growth of both ``t100`` and ``e`` is
    extrapolated per objective. An upper-bound-minded heuristic: other fronts of the
    same size are usually faster (fronts of uniform random rows, 6-10-D: 10x to
    thousands of times).
    """
    if n_objectives <= 3 or n_front <= 1:
        return 1e-6 * max(n_front, 1)
    base, exponent = _cost_params(n_objectives)
    return base * (n_front / 100.0) ** exponent


def _cost_params(n_objectives: int) -> tuple[float, float]:
    top = max(_EXACT_COST)
    if n_objectives <= top:
        return _EXACT_COST[n_objectives]
    (base9, e9), (base10, e10) = _EXACT_COST[top - 1], _EXACT_COST[top]
    extra = n_objectives - top
    return base10 * (base10 / base9) ** extra, e10 + max(e10 - e9, 0.0) * extra


def _probed_cost_seconds(front: np.ndarray, r: np.ndarray, budget: float) -> float:
    """Predicted exact seconds for ``front``, measured on growing subsets of it.

    Used when the sphere-front model predicts over the budget: sphere fronts are the slow
    case, and a front of real rows is often several times faster. Times the exact volume
    (CPU time of this thread) of 16, 32, 64, ... rows drawn from the front (a subset of a
    front is a front), the last of them half the front, doubling while the next subset
    is predicted to take at most an eighth of the budget; the growth exponent between
    the last two subsets (kept between the model's minus 1, at least 1, and the
    model's) carries the last time to all n rows. A last subset under 2 ms is too short
    to carry over several doublings: the model decides, unless it is already half the
    front. The subsets together take about a quarter of the budget
    at most (each at least doubles the time of the one before). A cold numba cache makes
    the first subset slow and the prediction high: Monte-Carlo, never a surprise wait.
    """
    n, k = front.shape
    _, model_exponent = _cost_params(k)
    if n < 2 * _PROBE_MIN_ROWS:
        return exact_cost_seconds(n, k)
    rows = np.random.default_rng(0).permutation(n)
    size, previous, growth = _PROBE_MIN_ROWS, None, model_exponent
    while True:
        sub = np.ascontiguousarray(front[np.sort(rows[:size])])
        start = time.thread_time()
        _exact_front(sub, r)
        seconds = max(time.thread_time() - start, 1e-7)
        if previous is not None:
            growth = math.log(seconds / previous[1]) / math.log(size / previous[0])
            growth = min(max(growth, model_exponent - 1.0, 1.0), model_exponent)
        following = min(2 * size, n // 2)
        if (following <= size
                or seconds * (following / size) ** growth > budget * _PROBE_SHARE):
            break
        previous, size = (size, seconds), following
    if seconds < _PROBE_MIN_SECONDS and 2 * size < n - 1:
        # too short to carry over several doublings: the model decides (half the front
        # under 2 ms is carried: one doubling, the growth capped at the model's)
        return exact_cost_seconds(n, k)
    return seconds * (n / size) ** growth


def hypervolume_auto(points, /, ref, *, directions=None, budget_seconds: float = 0.5,
                     n_samples: int = 100_000, rng=None,
                     confidence: float = 0.95) -> HypervolumeEstimate:
    """Exact hypervolume when it is cheap, else the Monte-Carlo estimate.

    Parameters
    ----------
    points, ref, directions, n_samples, rng, confidence
        As in :func:`hypervolume_mc` (the last three used when the exact value is too
        costly).
    budget_seconds : float, default 0.5
        Compute exactly when :func:`exact_cost_seconds` of the front, or else a timed
        probe on subsets of the front (Notes), predicts at most this many seconds of CPU
        time; always exact for K <= 3.

    Returns
    -------
    HypervolumeEstimate
        ``exact=True`` with ``ci_low == ci_high == value`` and ``n_samples == 0`` for an
        exact value (bit-identical to :func:`hypervolume`); otherwise the Monte-Carlo
        estimate with ``exact=False``.

    Raises
    ------
    InvalidInputError
        As :func:`hypervolume_mc`, and for a negative or non-finite ``budget_seconds``.

    Notes
    -----
    The decision uses the number n of distinct non-dominated rows inside the reference
    box. Exact when :func:`exact_cost_seconds` (power laws measured on sphere fronts, the
    slow case) predicts at most the budget; otherwise the exact volume of growing subsets
    of the front (16, 32, ... rows, the largest predicted at an eighth of the budget) is
    timed and carried to n with the growth observed between the last two, and the value
    is exact when that predicts at most the budget (random 8-D fronts of a few hundred
    rows, for instance, take a tenth of what a sphere front of that size takes). Exact
    cost grows like about n^1.7-2 at K = 4, 5 and steeper with K (the problem is #P-hard
    in K); the Monte-Carlo error shrinks like ``1/sqrt(n_samples)`` whatever K is.
    ``method`` of the result says which computation it shows.

    Examples
    --------
    >>> est = hypervolume_auto([[1, 2], [2, 1]], ref=[3, 3])
    >>> est.value, est.exact, est.method
    (3.0, True, 'hv2d')
    """
    y, r = _oriented_problem(points, ref, directions)
    budget = check_non_negative(budget_seconds, name="budget_seconds")
    front, _ = _box_and_front(y, r)
    if (y.shape[1] <= 3 or exact_cost_seconds(front.shape[0], y.shape[1]) <= budget
            or _probed_cost_seconds(front, r, budget) <= budget):
        # the same computation as hypervolume(), so an exact value here is bit-identical
        # to it (K = 4, 5 hand all rows to moocore, which may sum in another order)
        value = _exact(y, r)
        return HypervolumeEstimate(value, value, value, 0, exact=True,
                                   method=exact_method(front.shape[0], y.shape[1]))
    return hypervolume_mc(front, r, n_samples=n_samples, rng=rng, confidence=confidence)


def default_reference_point(points, /, directions=None, *, margin: float = 0.1) -> np.ndarray:
    """Reference point a little worse than the worst row in every objective.

    Parameters
    ----------
    points : array_like, shape (N, K), N >= 1
        The rows the reference point must be worse than.
    directions : None, "min", "max" or sequence of them, optional
        Per-column direction; None minimises every column.
    margin : float, default 0.1
        Fraction of each objective's range added beyond the worst value.

    Returns
    -------
    ndarray, shape (K,)
        In the objectives' own units and directions: ``max + margin * range`` for a
        min objective, ``min - margin * range`` for a max objective.

    Raises
    ------
    InvalidInputError
        No rows, NaN or infinite values, bad ``directions``, negative ``margin``.

    Notes
    -----
    ``r'_k = nadir'_k + margin * (nadir'_k - ideal'_k)`` on min-oriented values
    (METHODS.md: the nadir plus 10% of each range). When an objective is constant
    (range 0) the offset is ``margin * max(1, |value|)`` so that the row still adds
    volume. Every row then strictly dominates r when ``margin > 0``.

    Examples
    --------
    >>> default_reference_point([[0.0, 10.0], [1.0, 20.0]], ["min", "max"])
    array([1.1, 9. ])
    >>> default_reference_point([[5.0], [5.0]])
    array([5.5])
    """
    margin = check_non_negative(margin, name="margin")
    y = oriented_view(points, directions, min_rows=1)
    maximise = parse_directions(directions, y.shape[1])
    nadir = y.max(axis=0)
    spread = nadir - y.min(axis=0)
    offset = np.where(spread > 0, margin * spread, margin * np.maximum(1.0, np.abs(nadir)))
    ref = nadir + offset
    return np.where(maximise, -ref, ref)


def _check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InvalidInputError(f"'{name}' must be a positive integer, not {value!r}")
    return int(value)


def _check_confidence(value) -> float:
    try:
        level = float(value)
    except (TypeError, ValueError):
        raise InvalidInputError("'confidence' must be a number in (0, 1)") from None
    if not 0.0 < level < 1.0:
        raise InvalidInputError(f"'confidence' must be in (0, 1), not {level}")
    return level
