"""Compiled exact hypervolume for K >= 4: WFG with preallocated frames and a 3-D base case.

WFG (While, Bradstreet and Barone 2012, IEEE TEVC 16(1)) sums exclusive volumes of
slices of the last objective. With the rows sorted by it (z_1 <= z_2 <= ...),

    HV_K(P) = sum_i (r_K - z_i) * ( box_{K-1}(p_i) - HV_{K-1}(nds(limit_i)) ),

where ``limit_i`` holds every earlier row clamped to p_i (componentwise max, the part of
its box inside p_i's box) and ``nds`` keeps the non-dominated ones. The heuristics that
make WFG fast, all here:

- the limit set is built with an online non-dominated filter (a new clamped row is
  dropped when a kept one weakly dominates it, and evicts the kept rows it dominates),
  so each recursion starts from a small, clean front (the "bounding" step);
- when an earlier row weakly dominates p_i in the first K-1 objectives, its clamp equals
  p_i, the slice adds nothing and the whole sub-problem is skipped;
- every recursion level sorts its rows by the objective it slices (the "ordering" step:
  earlier rows then clamp later ones the most) and one or two rows are done by
  inclusion-exclusion (up to four rows);
- the recursion stops at K = 3, where the HV3D sweep (O(m log m)) replaces pygmo's
  2-D base case.

Why written here and not handed to a library: moocore's and pygmo's exact codes are C
and C++ behind Python calls that cannot be used from numba (the permutation test and the
indicators call the hypervolume from compiled loops), and both were measured slower than
this kernel from 6 objectives up (``benchmarks/bench_hypervolume.py``).

The two helpers called millions of times (the limit set and the closed forms) are
inlined into the driver at numba's IR level: 10% less CPU time at 7-D and 8-D.

The last three slicing steps (frames of 6, 5 and 4 objectives: at 8-D x 150 about 2
million limit sets of two to six rows) run in :func:`_hv6_frame`, :func:`_hv5_frame` and
:func:`_hv4_frame`, the same steps with the objective count written out (the compiler
unrolls the loops over objectives) and the closed forms for up to four rows written into
their loops, not called: every call of a compiled function, inlined or not, with array
arguments costs two atomic reference-count updates per array (measured with perf: 11-14%
of the CPU time in ``NRT_incref``/``NRT_decref``). Same sums in the same order, so the
volumes are bit-identical to the generic driver's. The three are generated from one
template (:func:`_frame_source`, compiled by :func:`_compile_frame`) instead of three
hand-written copies: the same text, so the same volumes and the same speed. What this cost
in compile time, and what was tried and gave nothing: docs/benchmarks.md, "The WFG
kernel's generated leaves".

Memory: one (K, N, K) float64 frame stack plus a few length-N buffers, allocated once.
The twin is :func:`copa_dash.core._kernels.hypervolume.hv_slices` (the same recurrence
without the frame reuse, online filter and inclusion-exclusion shortcuts) and the
inclusion-exclusion / grid references in :mod:`copa_dash.core._reference.hypervolume`.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .hypervolume import box_volume, staircase_insert
from .loops import clamp_row, lowest_row, odd_size

_INSERTION_SORT_MAX = 24


@njit(cache=True)
def _sort_rows(frame, m, k, column, scratch):
    """Sort ``frame[:m, :k]`` in place by ``column`` ascending (order of ties unspecified)."""
    if m <= _INSERTION_SORT_MAX:
        for i in range(1, m):
            key = frame[i, column]
            j = i - 1
            while j >= 0 and frame[j, column] > key:
                j -= 1
            j += 1
            if j < i:
                for d in range(k):
                    scratch[0, d] = frame[i, d]
                for t in range(i, j, -1):
                    for d in range(k):
                        frame[t, d] = frame[t - 1, d]
                for d in range(k):
                    frame[j, d] = scratch[0, d]
        return
    order = np.argsort(frame[:m, column])
    for t in range(m):
        for d in range(k):
            scratch[t, d] = frame[order[t], d]
    for t in range(m):
        for d in range(k):
            frame[t, d] = scratch[t, d]


@njit(cache=True, inline="always")  # hot: millions of calls at 8-D
def _limit_set(src, i, dst, k):
    """Clamp ``src[:i, :k]`` to ``src[i]``; keep the non-dominated clamps in ``dst``.

    Returns the number of kept rows, or -1 when some clamp equals ``src[i]`` itself
    (an earlier row weakly dominates it: its exclusive volume is zero).
    """
    m = 0
    for j in range(i - 1, -1, -1):
        if clamp_row(src, j, i, dst, m, k):
            return -1
        covered = False
        for q in range(m - 1, -1, -1):  # does a kept row weakly dominate the new clamp?
            le = True
            for d in range(k):
                if dst[q, d] > dst[m, d]:
                    le = False
                    break
            if le:
                covered = True
                break
        if covered:
            continue
        kept = 0
        for q in range(m):  # evict the kept rows the new clamp dominates
            ge = True
            for d in range(k):
                if dst[q, d] < dst[m, d]:
                    ge = False
                    break
            if not ge:
                if kept < q:
                    for d in range(k):
                        dst[kept, d] = dst[q, d]
                kept += 1
        if kept < m:
            for d in range(k):
                dst[kept, d] = dst[m, d]
        m = kept + 1
    return m


@njit(cache=True)
def _hv3d_frame(frame, m, ref, xs, ys, scratch):
    """HV3D sweep on ``frame[:m, :3]`` (rows strictly inside ``ref``); sorts the frame."""
    _sort_rows(frame, m, 3, 2, scratch)
    n_stairs = 0
    area = 0.0
    volume = 0.0
    for t in range(m):
        n_stairs, gain = staircase_insert(xs, ys, n_stairs, frame[t, 0], frame[t, 1],
                                          ref[0], ref[1])
        area += gain
        z_next = frame[t + 1, 2] if t + 1 < m else ref[2]
        volume += area * (z_next - frame[t, 2])
    return volume


def _frame_source(k: int) -> str:
    """Source of ``_hv{k}_frame``: WFG's slicing step for ``k`` objectives, written out.

    Every loop over objectives becomes ``k`` or ``k - 1`` written-out terms (``a0 <= p0
    and a1 <= p1 ...``), the closed forms for up to four limit rows are in the loop, and
    more rows go to ``_hv{k-1}_frame`` (``_hv3d_frame`` below 4). The terms and their
    order are those of the hand-written functions this replaced, so the volumes are
    bit-identical.
    """
    d = k - 1  # objectives of the limit sets

    def terms(fmt: str, sep: str, n: int = d) -> str:
        return sep.join(fmt.format(t=t) for t in range(n))

    lims = ", ".join(f"lim{j}" for j in range(d, 2, -1))
    lim = f"lim{d}"
    if d == 3:
        below = "_hv3d_frame(lim3, n, ref, xs, ys, scratch)"
    else:
        below = f"_hv{d}_frame({lim}, n, ref, {', '.join(f'lim{j}' for j in range(d - 1, 2, -1))}, xs, ys, scratch, corners)"
    box = terms("(r{t} - {lim}[{{row}}, {t}])".replace("{lim}", lim), " * ")
    return f'''
@njit(cache=True)
def _hv{k}_frame(frame, m, ref, {lims}, xs, ys, scratch, corners):
    """WFG's slicing step for {k} objectives (generated by ``_frame_source({k})``)."""
    _sort_rows(frame, m, {k}, {d}, scratch)
{terms("    r{t} = ref[{t}]", chr(10), k)}
    total = 0.0
    for i in range(m):
{terms("        p{t} = frame[i, {t}]", chr(10))}
        n = 0
        dominated = False
        for j in range(i - 1, -1, -1):
{terms("            a{t} = frame[j, {t}]", chr(10))}
            if {terms("a{t} <= p{t}", " and ")}:
                dominated = True
                break
{terms("            c{t} = max(a{t}, p{t})", chr(10))}
            covered = False
            for q in range(n - 1, -1, -1):
                if {terms(lim + "[q, {t}] <= c{t}", " and ")}:
                    covered = True
                    break
            if covered:
                continue
            kept = 0
            for q in range(n):
                if not ({terms(lim + "[q, {t}] >= c{t}", " and ")}):
                    if kept < q:
{terms("                        " + lim + "[kept, {t}] = " + lim + "[q, {t}]", chr(10))}
                    kept += 1
{terms("            " + lim + "[kept, {t}] = c{t}", chr(10))}
            n = kept + 1
        if dominated:
            continue
        if n == 0:
            value = 0.0
        elif n == 1:
            value = {box.format(row=0)}
        elif n == 2:
            both = {terms("(r{t} - max(" + lim + "[0, {t}], " + lim + "[1, {t}]))", " * ")}
            value = {box.format(row=0)} + {box.format(row=1)} - both
        elif n <= 4:
            union = 0.0
            for mask in range(1, 1 << n):
                row = lowest_row(mask)
                rest = mask & (mask - 1)  # without its lowest row
{terms("                x{t} = " + lim + "[row, {t}]", chr(10))}
                if rest:
{terms("                    x{t} = max(x{t}, corners[rest, {t}])", chr(10))}
{terms("                corners[mask, {t}] = x{t}", chr(10))}
                volume = {terms("(r{t} - x{t})", " * ")}
                union += volume if odd_size(mask) else -volume
            value = union
        else:
            value = {below}
        total += (r{d} - frame[i, {d}]) * ({terms("(r{t} - p{t})", " * ")} - value)
    return total
'''


def _compile_frame(k: int):
    """Define ``_hv{k}_frame`` from :func:`_frame_source` (compiled lazily, cached on disk).

    Why generated source and not one generic function: numba unrolls the loops over
    objectives, and keeps the limit-set coordinates in registers, only when the objective
    count is fixed at compile time; a run-time ``k`` made the generic loops the hottest
    code, and ``numba.literal_unroll`` iterates over tuples, not over the columns of an
    array. Why ``exec`` with this file's name: numba's on-disk cache locates a function by
    its source file, so the generated functions are cached like the written ones (their
    line numbers in tracebacks are those of the generated text, see the function above).
    """
    namespace: dict = {}
    exec(compile(_frame_source(k), __file__, "exec"), globals(), namespace)  # noqa: S102
    return namespace[f"_hv{k}_frame"]


_hv4_frame = _compile_frame(4)
_hv5_frame = _compile_frame(5)
_hv6_frame = _compile_frame(6)


@njit(cache=True)
def _inclusion_exclusion(frame, m, k, ref, corners):
    """Union of m <= 4 boxes by inclusion-exclusion (2^m - 1 products; cheaper than slicing).

    ``corners[mask]`` is the componentwise max of the rows in ``mask``, built from the
    mask without its lowest row; ``corners`` needs 2^m rows of length k.
    """
    total = 0.0
    for mask in range(1, 1 << m):
        row = lowest_row(mask)
        rest = mask & (mask - 1)  # without its lowest row
        volume = 1.0
        for d in range(k):
            x = frame[row, d]
            if rest:
                x = max(x, corners[rest, d])
            corners[mask, d] = x
            volume *= ref[d] - x
        total += volume if odd_size(mask) else -volume
    return total


@njit(cache=True, inline="always")  # hot: millions of calls at 8-D
def _direct(frame, m, k, ref, xs, ys, scratch, corners, lim5, lim4, lim3):
    """Volume of ``frame[:m, :k]`` when no slicing is needed (m <= 4 or k == 3), else -1."""
    if m == 0:
        return 0.0
    if m == 1:
        return box_volume(frame, 0, k, ref)
    if m == 2:
        both = 1.0
        for d in range(k):
            both *= ref[d] - max(frame[0, d], frame[1, d])
        return box_volume(frame, 0, k, ref) + box_volume(frame, 1, k, ref) - both
    if m <= 4:
        return _inclusion_exclusion(frame, m, k, ref, corners)
    if k == 3:
        return _hv3d_frame(frame, m, ref, xs, ys, scratch)
    if k == 4:
        return _hv4_frame(frame, m, ref, lim3, xs, ys, scratch, corners)
    if k == 5:
        return _hv5_frame(frame, m, ref, lim4, lim3, xs, ys, scratch, corners)
    if k == 6:
        return _hv6_frame(frame, m, ref, lim5, lim4, lim3, xs, ys, scratch, corners)
    return -1.0


@njit(cache=True)
def _wfg(frames, m, k, ref, xs, ys, scratch, corners, lim5, lim4, lim3):
    """Hypervolume of ``frames[0, :m, :k]`` (non-dominated rows inside ``ref``).

    The recursion ``HV_k -> HV_{k-1}`` runs on an explicit stack of levels (level L
    slices objective k - L) because numba's on-disk cache cannot reload a recursive
    function (the reloaded code crashes).
    """
    value = _direct(frames[0], m, k, ref, xs, ys, scratch, corners, lim5, lim4, lim3)
    if value >= 0.0:
        return value
    sizes = np.zeros(k, dtype=np.int64)
    cursor = np.zeros(k, dtype=np.int64)
    volumes = np.zeros(k, dtype=np.float64)
    sizes[0] = m
    _sort_rows(frames[0], m, k, k - 1, scratch)
    level = 0
    while True:
        dims = k - level
        frame = frames[level]
        i = cursor[level]
        if i == sizes[level]:  # this level is done: hand its volume to the one above
            value = volumes[level]
            if level == 0:
                return value
            level -= 1
            dims += 1
            frame = frames[level]
            i = cursor[level]
            volumes[level] += (ref[dims - 1] - frame[i, dims - 1]) * (
                box_volume(frame, i, dims - 1, ref) - value)
            cursor[level] = i + 1
            continue
        kept = _limit_set(frame, i, frames[level + 1], dims - 1)
        if kept < 0:
            cursor[level] = i + 1
            continue
        value = _direct(frames[level + 1], kept, dims - 1, ref, xs, ys, scratch, corners,
                        lim5, lim4, lim3)
        if value >= 0.0:
            volumes[level] += (ref[dims - 1] - frame[i, dims - 1]) * (
                box_volume(frame, i, dims - 1, ref) - value)
            cursor[level] = i + 1
            continue
        level += 1
        sizes[level] = kept
        cursor[level] = 0
        volumes[level] = 0.0
        _sort_rows(frames[level], kept, dims - 1, dims - 2, scratch)


@njit(cache=True)
def hv_wfg(front, ref):
    """Exact hypervolume of ``front`` (N, K), K >= 3: rows inside ``ref``, non-dominated.

    Duplicates are allowed (a duplicate's slice is skipped as weakly dominated).
    """
    n, k = front.shape
    if n == 0:
        return 0.0
    frames = np.empty((k - 2, n, k), dtype=np.float64)
    for i in range(n):
        for d in range(k):
            frames[0, i, d] = front[i, d]
    xs = np.empty(n + 1, dtype=np.float64)
    ys = np.empty(n + 1, dtype=np.float64)
    scratch = np.empty((n, k), dtype=np.float64)
    corners = np.empty((16, k), dtype=np.float64)
    lim5 = np.empty((n, 5), dtype=np.float64)
    lim4 = np.empty((n, 4), dtype=np.float64)
    lim3 = np.empty((n, 3), dtype=np.float64)
    return _wfg(frames, n, k, ref, xs, ys, scratch, corners, lim5, lim4, lim3)
