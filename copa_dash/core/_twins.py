"""Numpy twins of the kernels a first page or a first command needs, used while they compile.

Each twin takes the kernel's arguments and returns what the kernel returns (same rule, same
ties, same dtype), vectorised with numpy so that it answers in well under a second on the
bundled tables (a few thousand rows). They are not the slow, obviously-correct twins of
``_reference/`` (pure Python loops, minutes on these sizes); tests compare both kinds with
the kernels. A twin raises :class:`TwinDeclined` when the input is too large for its
O(N^2) memory or time; the kernel then compiles on the spot.

:data:`TWINS` maps ``"<kernel module>.<function>"`` to the twin; :mod:`.jit` looks kernels
up there.
"""

from __future__ import annotations

from bisect import bisect_left

import moocore  # already the core's engine for 4-D to 7-D hypervolumes (core/hypervolume.py)
import numpy as np

from ._kernels.ties import TIE_RTOL, TIEBREAK_P

# O(N^2 K) comparisons are fine up to about 2e8 (well under a second in chunks).
_MAX_PAIR_WORK = 2e8
_CHUNK_CELLS = 4_000_000  # elements of one broadcast block (32 MB of float64)


class TwinDeclined(Exception):
    """Raised by a twin when the input is too large for it; the kernel compiles now."""


def all_finite(points):
    """True when no cell is NaN or infinite."""
    return bool(np.isfinite(points).all())


def cdf_columns(y_t, order, population):
    """u[i, k] = #{j in population, y[j, k] not NaN : y[j, k] < y[i, k]} / N_pop[k]."""
    k_count, n = y_t.shape
    u = np.empty((n, k_count), dtype=np.float64)
    for k in range(k_count):
        column = y_t[k]
        pop = np.sort(column[population & ~np.isnan(column)])
        counts = np.searchsorted(pop, column, side="left").astype(np.float64)
        u[:, k] = np.where(np.isnan(column), np.nan, counts / pop.shape[0])
    return u


def _criterion(x, p):
    """C of every row of ``x = w * u`` (last axis the objectives): the kernel's formula
    ``m (sum_k (x_k / m)^p)^(1/p)``, the terms added left to right as the kernel does."""
    nan_row = np.isnan(x).any(axis=-1)
    m = np.zeros(x.shape[:-1])
    for k in range(x.shape[-1]):
        m = np.maximum(m, np.nan_to_num(x[..., k], nan=0.0))
    if np.isinf(p):
        out = m.copy()
    else:
        safe = np.where(m == 0.0, 1.0, m)
        s = np.zeros(x.shape[:-1])
        for k in range(x.shape[-1]):
            s = s + (x[..., k] / safe) ** p
        out = np.where(m == 0.0, 0.0, m * s ** (1.0 / p))
    out[nan_row] = np.nan
    return out


def _row_sums(u):
    s = np.zeros(u.shape[0])
    for k in range(u.shape[1]):
        s = s + u[:, k]
    return s


def copa_scores(u, w, p):
    """C of every row (NaN where the row has a NaN)."""
    return _criterion(u * w, p)


def pick_from_band(u, w, rows, n_rows):
    """Position in ``rows[:n_rows]`` of the tie-break winner (C at p = 8, sum u, order)."""
    rows = np.asarray(rows[:n_rows])
    if n_rows == 1:
        return 0
    c8 = _criterion(u[rows] * w, TIEBREAK_P)
    in8 = c8 <= c8.min() * (1.0 + TIE_RTOL)
    sums = np.where(in8, _row_sums(u[rows]), np.inf)
    in_sum = sums <= sums.min() * (1.0 + TIE_RTOL)
    candidates = np.flatnonzero(in_sum)
    return int(candidates[np.argmin(rows[candidates])])


def copa_select(u, w, p, eligible):
    """Index of the selected row, or -1 when no eligible row has a finite C."""
    c = np.where(eligible, copa_scores(u, w, p), np.nan)
    if np.isnan(c).all():
        return -1
    band = np.flatnonzero(c <= np.nanmin(c) * (1.0 + TIE_RTOL))
    return int(band[pick_from_band(u, w, band, band.shape[0])])


def copa_ranking(u, w, p, eligible):
    """Eligible rows with a finite C, best first (the kernel's loop over sorted C)."""
    c = copa_scores(u, w, p)
    valid = np.flatnonzero(np.asarray(eligible) & ~np.isnan(c))
    order = valid[np.argsort(c[valid], kind="stable")]
    c_sorted = c[order]
    n_valid = order.shape[0]
    taken = np.zeros(n_valid, dtype=bool)
    out = np.empty(n_valid, dtype=np.int64)
    first = 0
    for r in range(n_valid):
        while taken[first]:
            first += 1
        stop = np.searchsorted(c_sorted, c_sorted[first] * (1.0 + TIE_RTOL), side="right")
        if stop == first + 1:
            winner_pos = first
        else:
            positions = np.arange(first, stop)[~taken[first:stop]]
            winner_pos = positions[pick_from_band(u, w, order[positions], positions.shape[0])]
        taken[winner_pos] = True
        out[r] = order[winner_pos]
    return out


def _dominated(points, candidates=None):
    """Bool (N,): rows some other row dominates (<= everywhere, < somewhere); chunked."""
    y = np.asarray(points, dtype=np.float64)
    n, k = y.shape
    if float(n) * n * max(k, 1) > _MAX_PAIR_WORK:
        raise TwinDeclined(f"{n} rows is too many for the numpy twin")
    out = np.zeros(n, dtype=bool)
    step = max(1, _CHUNK_CELLS // max(n * k, 1))
    for lo in range(0, n, step):
        block = y[lo:lo + step]
        le = (y[None, :, :] <= block[:, None, :]).all(axis=2)
        lt = (y[None, :, :] < block[:, None, :]).any(axis=2)
        out[lo:lo + step] = (le & lt).any(axis=1)
    return out


def nondominated_mask(points):
    """Rows that no row dominates (duplicates of a front row all kept)."""
    return ~_dominated(points)


def nondominated_layers(points):
    """Layer of every row, 1 = front: the front, then the front of the rest, and so on."""
    y = np.asarray(points, dtype=np.float64)
    layers = np.zeros(y.shape[0], dtype=np.int64)
    remaining = np.arange(y.shape[0])
    layer = 1
    while remaining.size:
        front = ~_dominated(y[remaining])
        layers[remaining[front]] = layer
        remaining = remaining[~front]
        layer += 1
    return layers


def bitset_layers(points):
    """0-based layer of every row (the dominance-set bitset kernel's answer), same method
    in numpy: distinct rows in lexicographic order (``np.unique``), the rows dominating row
    s are the earlier rows <= it in every objective (a boolean block per chunk of rows), and
    the layer of s is one more than the largest layer among them (0 when there are none).
    Duplicates take the layer of their copy."""
    y = np.asarray(points, dtype=np.float64) + 0.0  # -0.0 and 0.0: one value
    n, k = y.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if float(n) * n * max(k, 1) > _MAX_PAIR_WORK:
        raise TwinDeclined(f"{n} rows is too many for the numpy twin")
    rows, back = np.unique(y, axis=0, return_inverse=True)
    m = rows.shape[0]
    rank = np.zeros(m, dtype=np.int64)
    step = max(1, _CHUNK_CELLS // max(m * k, 1))
    for lo in range(0, m, step):
        block = rows[lo:lo + step]
        below = (rows[None, :, :] <= block[:, None, :]).all(axis=2)  # [s, t]: t <= s
        for a in range(block.shape[0]):
            s = lo + a
            dominators = np.flatnonzero(below[a, :s])  # distinct and earlier: t dominates s
            rank[s] = rank[dominators].max() + 1 if dominators.size else 0
    return rank[back.reshape(-1)]


def alpha_sweep_select(u, in_focus, a, b, p, eligible):
    """Selected row for every grid point: COPA's selection with w = (a on F, b off F).

    Only rows free of NaN, eligible and non-dominated in u can win (a row dominated in u
    has no larger C, C at p = 8 and sum of u than the row dominating it, and a smaller sum),
    so the selection runs on those, for blocks of alphas at once.
    """
    n_alphas = a.shape[0]
    selected = np.full(n_alphas, -1, dtype=np.int64)
    usable = np.flatnonzero(np.asarray(eligible) & ~np.isnan(u).any(axis=1))
    if usable.size == 0:
        return selected
    rows = usable[~_dominated(u[usable])]
    uc = u[rows]
    sums = _row_sums(uc)
    r_count, k_count = uc.shape
    step = max(1, _CHUNK_CELLS // (r_count * k_count))
    for lo in range(0, n_alphas, step):
        w = np.where(in_focus[None, :], a[lo:lo + step, None], b[lo:lo + step, None])
        c = _criterion(w[:, None, :] * uc[None, :, :], p)
        in1 = c <= c.min(axis=1, keepdims=True) * (1.0 + TIE_RTOL)
        c8 = np.full(c.shape, np.inf)
        t_idx, r_idx = np.nonzero(in1)
        c8[t_idx, r_idx] = _criterion(w[t_idx] * uc[r_idx], TIEBREAK_P)
        in2 = c8 <= c8.min(axis=1, keepdims=True) * (1.0 + TIE_RTOL)
        s = np.where(in2, sums[None, :], np.inf)
        in3 = s <= s.min(axis=1, keepdims=True) * (1.0 + TIE_RTOL)
        selected[lo:lo + step] = rows[np.argmax(in3, axis=1)]
    return selected


def ahp_priorities(log_z):
    """Principal eigenvector (sum 1) of App. A's pairwise matrix, by power iteration on the
    full matrix (O(n^2) memory, so declined above a few thousand values)."""
    n = log_z.shape[0]
    if n > 5000:
        raise TwinDeclined(f"{n} values is too many for the numpy twin")
    out = np.full(n, 1.0 / n)
    span = log_z.max() - log_z.min()
    if span == 0.0:
        return out
    c = 8.0 / span
    diff = log_z[:, None] - log_z[None, :]
    matrix = np.where(diff >= 0.0, 1.0 + c * diff, 1.0 / (1.0 + c * np.abs(diff)))
    x = out
    for _ in range(10_000):
        y = matrix @ x
        y /= y.sum()
        done = np.abs(y - x).max() <= 1e-14 * y.max()
        x = y
        if done:
            break
    return x


def niche_counts(points, sigma):
    """Other rows closer than ``sigma`` (Euclidean) to every row.

    The squared distance is summed over the objectives in the kernel's order (one column
    at a time), so a distance exactly at ``sigma`` falls on the same side as in the kernel.
    """
    y = np.asarray(points, dtype=np.float64)
    n, k = y.shape
    if float(n) * n * max(k, 1) > _MAX_PAIR_WORK:
        raise TwinDeclined(f"{n} rows is too many for the numpy twin")
    counts = np.zeros(n, dtype=np.int64)
    step = max(1, _CHUNK_CELLS // max(n, 1))
    for lo in range(0, n, step):
        block = y[lo:lo + step]
        d2 = np.zeros((block.shape[0], n))
        for d in range(k):
            diff = block[:, None, d] - y[None, :, d]
            d2 = d2 + diff * diff
        close = np.sqrt(d2) < sigma
        # the row itself (distance 0) is not a neighbour
        close[np.arange(block.shape[0]), np.arange(lo, lo + block.shape[0])] = False
        counts[lo:lo + step] = close.sum(axis=1)
    return counts


def inside_rows(points, ref):
    """Copy of the rows that strictly dominate ``ref``, in their order."""
    y = np.asarray(points, dtype=np.float64)
    return np.ascontiguousarray(y[(y < ref).all(axis=1)])


def unique_front(points):
    """Non-dominated rows without duplicates, sorted lexicographically (first column
    first), as the kernel returns them."""
    y = np.asarray(points, dtype=np.float64)
    front = y[~_dominated(y)] if y.shape[0] else y
    if front.shape[0] < 2:
        return np.ascontiguousarray(front)
    # np.lexsort is stable, like the kernel's radix + merge sort, so among equal rows the
    # same one (e.g. 0.0 rather than -0.0) comes first and is kept
    front = front[np.lexsort(front.T[::-1])]
    keep = np.ones(front.shape[0], dtype=bool)
    keep[1:] = (front[1:] != front[:-1]).any(axis=1)
    return np.ascontiguousarray(front[keep])


def _hv2d(points, ref):
    """The kernel's sweep: rows by increasing first value (stable), each adding the strip
    below the best second value so far (rows right of the box do not count); the strips
    are added left to right (``cumsum`` is sequential, so the sum rounds as the kernel's
    loop does)."""
    order = np.argsort(points[:, 0], kind="stable")
    x, y = points[order, 0], points[order, 1]
    y_in = np.where(x < ref[0], y, np.inf)
    best_before = np.minimum.accumulate(np.concatenate(([ref[1]], y_in[:-1])))
    gains = np.where((x < ref[0]) & (y < best_before), (ref[0] - x) * (best_before - y), 0.0)
    return float(np.cumsum(gains)[-1]) if gains.size else 0.0


def _staircase_insert(xs, ys, x, y, r0, r1):
    """The kernel's ``staircase_insert`` on Python lists (the same float operations)."""
    m = len(xs)
    s = bisect_left(xs, x)
    if s > 0 and ys[s - 1] <= y:
        return 0.0
    if s < m and xs[s] == x and ys[s] <= y:
        return 0.0
    e = s
    while e < m and ys[e] >= y:  # stairs[s:e] are the ones the new row covers
        e += 1
    # the new area is a strip per covered stair, [x, ...) under the stair before it
    lefts = [x, *xs[s:e]]
    rights = [*xs[s:e], xs[e] if e < m else r0]
    heights = [ys[s - 1] if s > 0 else r1, *ys[s:e]]
    gain = 0.0
    for left, right, height in zip(lefts, rights, heights):
        gain += (right - left) * (height - y)
    xs[s:e] = [x]
    ys[s:e] = [y]
    return gain


def _hv3d(points, ref):
    """The kernel's HV3D sweep on the third objective, with the staircase in Python lists:
    O(N log N) list operations, a few hundred ms for 10^5 rows."""
    order = np.argsort(points[:, 2], kind="stable")
    p = points[order].tolist()
    r0, r1, r2 = float(ref[0]), float(ref[1]), float(ref[2])
    xs: list = []
    ys: list = []
    area = 0.0
    volume = 0.0
    n = len(p)
    for t in range(n):
        x, y, z = p[t]
        if z >= r2:
            break
        if x < r0 and y < r1:
            area += _staircase_insert(xs, ys, x, y, r0, r1)
        z_next = min(p[t + 1][2] if t + 1 < n else r2, r2)
        volume += area * (z_next - z)
    return volume


def hypervolume(points, ref):
    """Exact hypervolume for K <= 3 (the only sizes the core sends this kernel from
    Python; K >= 4 goes through :func:`unique_front` and moocore or :func:`hv_wfg`)."""
    inside = inside_rows(points, ref)
    n, k = inside.shape
    if n == 0:
        return 0.0
    if k == 1:
        return float(ref[0] - inside[:, 0].min())
    if k == 2:
        return _hv2d(inside, ref)
    if k == 3:
        return _hv3d(inside, ref)
    raise TwinDeclined(f"no numpy twin for a {k}-D hypervolume kernel call")


def hv_wfg(front, ref):
    """Exact hypervolume of a front by moocore (its HV4D+ recursion, O(n^(K-2)));
    declined when that would take long, where the compiled WFG kernel is the faster one.

    The recursion slices the front one objective at a time, each slice holding fewer rows,
    so its work is also bounded by the 2^n subsets of the rows: min(n^(K-2), 2^n) is what
    is bounded here. A few rows in many objectives (a system's front of 10 rows in 12
    objectives: 10^10 by the first bound, 1024 by the second) take milliseconds
    (``benchmarks/bench_upload_services.py``), not the compile of the WFG kernel (about
    20 s on a cold numba cache) that a decline would wait for.
    """
    n, k = front.shape
    if n == 0:
        return 0.0
    if min(float(n) ** max(k - 2, 1), 2.0 ** min(n, 64)) > 1e9:
        raise TwinDeclined(f"{n} rows in {k} objectives is too many for the twin")
    return float(moocore.hypervolume(np.ascontiguousarray(front), ref=np.asarray(ref)))


def hv_qhv(points, ref):
    """Exact hypervolume of any rows inside or outside ``ref`` (the QHV-II kernel's
    contract): the rows strictly inside, then :func:`hv_wfg` (moocore, or declined)."""
    inside = points[(points < np.asarray(ref)).all(axis=1)]
    return hv_wfg(inside, ref)


def hypervolume_2d_3d(points, ref):
    """Exact HV of any 2- or 3-objective rows (dominated or outside r: fine)."""
    if points.shape[0] == 0:
        return 0.0
    return _hv2d(points, ref) if points.shape[1] == 2 else _hv3d(points, ref)


def pooled_side_points(rows, run_start, labels, side):
    """Rows of the runs labelled ``side``, pooled in run order."""
    run_of_row = np.repeat(np.arange(labels.shape[0]), np.diff(run_start))
    return np.ascontiguousarray(rows[labels[run_of_row] == side])


def mean_side_points(sums, counts, labels, side):
    """Per-config means over the runs labelled ``side`` (configs it lacks skipped); the
    runs are added one at a time in index order, as in the kernel, so the floats agree."""
    _, n_configs, k = sums.shape
    acc = np.zeros((n_configs, k))
    cnt = np.zeros(n_configs)
    for r in np.flatnonzero(labels == side):
        has = counts[r] > 0
        cnt[has] += counts[r, has]
        acc[has] += sums[r, has]
    kept = cnt > 0
    return np.ascontiguousarray(acc[kept] / cnt[kept, None])


# One permutation costs two hypervolumes; above this many (permutations x rows) the
# Python loop would take more than a few seconds at K = 3 and the kernel compiles instead.
_MAX_PERMUTATION_ROWS = {2: 5e7, 3: 2e6}


def _deltas(labels, n_rows, n_obj, side_points, ref):
    if labels.shape[0] * max(n_rows, 1) > _MAX_PERMUTATION_ROWS.get(n_obj, 0):
        raise TwinDeclined(f"{labels.shape[0]} permutations of {n_rows} rows in {n_obj} "
                           "objectives is too many for the numpy twin")
    out = np.empty(labels.shape[0])
    for b in range(labels.shape[0]):
        out[b] = (hypervolume_2d_3d(side_points(labels[b], 1), ref)
                  - hypervolume_2d_3d(side_points(labels[b], 0), ref))
    return out


def pooled_deltas(rows, run_start, labels, ref):
    """``HV(side 1) - HV(side 0)`` for every label vector, K = 2 or 3."""
    return _deltas(labels, rows.shape[0], rows.shape[1],
                   lambda lab, side: pooled_side_points(rows, run_start, lab, side), ref)


def mean_deltas(sums, counts, labels, ref):
    """As :func:`pooled_deltas` with each side's front built from per-config means."""
    return _deltas(labels, sums.shape[1], sums.shape[2],
                   lambda lab, side: mean_side_points(sums, counts, lab, side), ref)


TWINS = {
    "dominance.all_finite": all_finite,
    "dominance.nondominated_mask": nondominated_mask,
    "dominance_layers.nondominated_layers": nondominated_layers,
    "dominance_bitsets.bitset_layers": bitset_layers,
    "ranks.cdf_columns": cdf_columns,
    "criteria.copa_scores": copa_scores,
    "criteria.copa_select": copa_select,
    "criteria.copa_ranking": copa_ranking,
    "sweep.alpha_sweep_select": alpha_sweep_select,
    "baselines.ahp_priorities": ahp_priorities,
    "indicators.niche_counts": niche_counts,
    "hypervolume.inside_rows": inside_rows,
    "hypervolume.unique_front": unique_front,
    "hypervolume.hypervolume": hypervolume,
    "hypervolume_wfg.hv_wfg": hv_wfg,
    "hypervolume_qhv.hv_qhv": hv_qhv,
    "significance.hypervolume_2d_3d": hypervolume_2d_3d,
    "significance.pooled_side_points": pooled_side_points,
    "significance.mean_side_points": mean_side_points,
    "significance.pooled_deltas": pooled_deltas,
    "significance.mean_deltas": mean_deltas,
}
