"""Compiled non-dominated sorting by dominance-set bitsets, for K >= 4 objectives up to
about 20,000 rows.

Inputs are (N, K) C-contiguous float64 arrays oriented to minimisation; nothing here
checks (:mod:`copa_dash.core.dominance` validates).

The idea (the dominance sets of Merge Non-Dominated Sorting, Moreno, Rodriguez, Nebro and
Lozano 2021, IEEE Trans. Cybernetics 51(12), arXiv:1809.06106, kept as bitsets): after
removing duplicate rows and numbering the distinct rows in lexicographic order, row t
dominates row s iff ``t < s`` and ``y[t, j] <= y[s, j]`` for every objective j >= 1 (the
lexicographic order settles objective 0 and rules out ``t > s``). So the set of rows that
dominate s is

    D(s) = {t < s}  AND  P_1(s)  AND ...  AND  P_{K-1}(s),    P_j(s) = {t : y[t, j] <= y[s, j]},

and P_j(s) is the set of rows seen so far when the rows are walked in the sorted order of
objective j (ties entered together). Each D(s) is a bitset of s bits, stored in one
triangular array (about N^2 / 16 bytes: 6 MB at 10,000 rows); one walk per objective ANDs
the walk's running bitset into every D(s), ``(K - 1) N^2 / 128`` word operations in all,
independent of the layers. The layers follow in lexicographic order: the layer of s is the
first layer r whose bitset F_r holds no row of D(s). That test is monotone in r (a row of
layer r that dominates s is itself dominated by a row of layer r - 1, which then dominates
s), so a binary search over the layers needs about log2(L) + 1 AND scans of D(s), each over
the words between the first and last non-zero word of D(s).

Time O(K N log N + K N^2 / 64) word operations, memory O(N^2 / 8 + L N / 8) bytes. Unlike
Best Order Sort (Roy, Islam and Deb 2016, which :mod:`.dominance_layers` ran before), the
cost does not grow with the size of the layers, so a front-heavy table costs no more than
a random one; the memory limits it to :data:`BITSET_MAX_ROWS` rows.
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from .dominance_sorting import distinct_sorted_rows, stable_argsort

# Most distinct rows the bitset method takes: its dominance sets need m^2 / 16 bytes (25 MB
# at 20,000 rows), and the layers' bitsets L m / 8 bytes (a chain of 20,000 one-row layers:
# 50 MB, allocated as the layers appear).
BITSET_MAX_ROWS = 20_000


@njit(cache=True)
def bitset_layers(points):
    """0-based layer of every row of ``points`` (N, K), min-oriented, by dominance-set bitsets.

    Duplicates share the layer of their first copy. See the module notes for the method;
    O(K N log N + K N^2 / 64) time and O(N^2 / 8) bytes of memory.
    """
    n, k = points.shape
    order, y, distinct = distinct_sorted_rows(points)
    m = y.shape[0]
    n_words = (m + 63) >> 6
    start = np.empty(m + 1, dtype=np.int64)  # D(s) is sets[start[s]:start[s + 1]]
    total = 0
    for s in range(m):
        start[s] = total
        total += (s + 63) >> 6  # bits 0 .. s-1
    start[m] = total
    sets = np.empty(total, dtype=np.uint64)
    seen = np.zeros(n_words, dtype=np.uint64)
    one = np.uint64(1)
    if k == 1:  # distinct rows in one objective: each is dominated by every earlier row
        for s in range(m):
            for w in range(start[s], start[s + 1]):
                sets[w] = ~np.uint64(0)
            if s & 63:
                sets[start[s + 1] - 1] = (one << np.uint64(s & 63)) - one
    for j in range(1, k):
        walk = stable_argsort(y[:, j].copy())
        seen[:] = 0
        a = 0
        while a < m:
            value = y[walk[a], j]
            b = a
            while b < m and y[walk[b], j] == value:  # ties enter together
                s = walk[b]
                seen[s >> 6] |= one << np.uint64(s & 63)
                b += 1
            for q in range(a, b):
                s = walk[q]
                off = start[s]
                words = start[s + 1] - off
                if j == 1:  # the first walk writes D(s) = {t < s} AND P_1(s)
                    for w in range(words):
                        sets[off + w] = seen[w]
                    if s & 63:
                        sets[off + words - 1] &= (one << np.uint64(s & 63)) - one
                else:
                    for w in range(words):
                        sets[off + w] &= seen[w]
            a = b
    rank = np.empty(m, dtype=np.int64)
    capacity = 16
    layer_sets = np.zeros((capacity, n_words), dtype=np.uint64)
    n_layers = 0
    for s in range(m):
        off = start[s]
        first = off
        stop = start[s + 1]
        while first < stop and sets[first] == 0:
            first += 1
        while stop > first and sets[stop - 1] == 0:
            stop -= 1
        lo = 0
        hi = n_layers if first < stop else 0  # D(s) empty: the front
        while lo < hi:  # first layer holding no row of D(s)
            mid = (lo + hi) >> 1
            hit = False
            for w in range(first, stop):
                if sets[w] & layer_sets[mid, w - off]:
                    hit = True
                    break
            if hit:
                lo = mid + 1
            else:
                hi = mid
        rank[s] = lo
        if lo == n_layers:
            if n_layers == capacity:
                capacity *= 2
                grown = np.zeros((capacity, n_words), dtype=np.uint64)
                grown[:n_layers] = layer_sets[:n_layers]
                layer_sets = grown
            n_layers += 1
        layer_sets[lo, s >> 6] |= one << np.uint64(s & 63)
    out = np.empty(n, dtype=np.int64)
    for t in range(n):
        out[order[t]] = rank[distinct[t]]
    return out
