"""Slow, obviously-correct twins of the poset kernels: the brute-force oracle.

Everything here follows the definitions of App. B of
papers/partial-rankings-of-optimizers-ufg-depth.txt literally, with Python sets:

- a poset on M = {0, ..., n-1} is a strict order, a frozenset of pairs (i, j) meaning
  "i is above j" (the paper's reflexive pairs (y, y) are left out: they are in every
  poset, so they change no intersection, union or inclusion);
- ``all_posets(n)`` lists every poset on n elements by testing all 2^(n(n-1)) relations
  (n <= 4: 1, 1, 3, 19, 219 posets);
- gamma(S) lists every poset p with intersection(S) <= p <= union(S);
- (C1) S is a proper subset of gamma(S); (C2) gamma(S) is not the union of gamma(A)
  over the proper subsets A of S (all of them, the empty set included: gamma of the
  empty set is empty, its intersection being M x M);
- D(p) = sum over ufg S (subsets of the distinct observed posets) with p in gamma(S)
  of prod nu(q), divided by the same sum without the condition on p.

Only for tests and benchmarks: the cost is O(3^m * #posets) for m distinct posets.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product

import numpy as np


def dominance_relations_reference(values: np.ndarray, /) -> tuple[np.ndarray, np.ndarray]:
    """Twin of ``_kernels.posets.dominance_relations``: plain loops.

    ``values`` is (T, n, C), oriented to minimisation. Returns ``above`` (T, n, n), True
    where method i is no worse than j on every criterion and better on one, and ``tied``
    (T, n, n), True where i != j are equal on every criterion.
    """
    n_tasks, n, n_crit = values.shape
    above = np.zeros((n_tasks, n, n), dtype=bool)
    tied = np.zeros((n_tasks, n, n), dtype=bool)
    for t in range(n_tasks):
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                a, b = values[t, i], values[t, j]
                no_worse = all(a[c] <= b[c] for c in range(n_crit))
                better = any(a[c] < b[c] for c in range(n_crit))
                above[t, i, j] = no_worse and better
                tied[t, i, j] = all(a[c] == b[c] for c in range(n_crit))
    return above, tied


def relation_to_pairs(relation) -> frozenset:
    """A boolean (n, n) matrix -> the frozenset of its off-diagonal True pairs."""
    rel = np.asarray(relation, dtype=bool)
    n = rel.shape[0]
    return frozenset((i, j) for i in range(n) for j in range(n) if i != j and rel[i, j])


def pairs_to_relation(pairs, n: int) -> np.ndarray:
    """The inverse of :func:`relation_to_pairs`."""
    rel = np.zeros((n, n), dtype=bool)
    for i, j in pairs:
        rel[i, j] = True
    return rel


def is_strict_order(pairs: frozenset) -> bool:
    """Irreflexive, antisymmetric and transitive (by the definitions)."""
    if any(i == j for i, j in pairs):
        return False
    if any((j, i) in pairs for i, j in pairs):
        return False
    return all((i, k) in pairs for i, j in pairs for j2, k in pairs if j == j2)


@lru_cache(maxsize=8)
def all_posets(n: int) -> tuple[frozenset, ...]:
    """Every poset (strict order) on n labelled elements, by exhaustive testing."""
    if n > 4:
        raise ValueError("the brute-force list is meant for n <= 4")
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
    out = []
    for bits in product((False, True), repeat=len(pairs)):
        rel = frozenset(p for p, b in zip(pairs, bits) if b)
        if is_strict_order(rel):
            out.append(rel)
    return tuple(out)


def _meet_join(subset, n):
    everything = frozenset((i, j) for i in range(n) for j in range(n) if i != j)
    meet = everything
    join = frozenset()
    for q in subset:
        meet = meet & q
        join = join | q
    return meet, join


def closure(subset, n: int) -> frozenset:
    """gamma(S): all posets p with intersection(S) <= p <= union(S), by listing."""
    meet, join = _meet_join(subset, n)
    return frozenset(p for p in all_posets(n) if meet <= p <= join)


def is_ufg(subset, n: int) -> bool:
    """(C1) and (C2) by the definition: all proper subsets, closures by listing."""
    subset = frozenset(subset)
    gamma = closure(subset, n)
    if not subset < gamma:  # (C1)
        return False
    members = list(subset)
    covered = set()
    for size in range(len(members)):  # every proper subset, the empty one included
        for part in combinations(members, size):
            covered |= closure(part, n)
    return covered != gamma  # (C2)


def ufg_depth_reference(posets, counts, n: int, query=()) -> tuple[np.ndarray, np.ndarray, int]:
    """The empirical ufg depth (Def. B.1) of the observed posets and of ``query``.

    Parameters
    ----------
    posets : sequence of frozenset
        The distinct observed posets.
    counts : sequence of int
        How often each was observed; nu = counts / sum(counts).
    n : int
        Number of elements of M.
    query : sequence of frozenset
        Further posets whose depth is wanted.

    Returns
    -------
    depths, query_depths, n_ufg_sets
        Depth of each observed poset, of each query poset, and the number of ufg sets
        among the subsets of the distinct observed posets. All depths are 0 when
        there is no ufg set (Def. B.1).
    """
    posets = [frozenset(p) for p in posets]
    if len(set(posets)) != len(posets):
        raise ValueError("posets must be distinct")
    nu = np.asarray(counts, dtype=float) / float(np.sum(counts))
    targets = posets + [frozenset(q) for q in query]
    numer = np.zeros(len(targets))
    denom = 0.0
    n_ufg = 0
    for size in range(2, len(posets) + 1):
        for idx in combinations(range(len(posets)), size):
            subset = [posets[i] for i in idx]
            if not is_ufg(subset, n):
                continue
            n_ufg += 1
            weight = float(np.prod(nu[list(idx)]))
            denom += weight
            gamma = closure(subset, n)
            for t, p in enumerate(targets):
                if p in gamma:
                    numer[t] += weight
    depth = numer / denom if denom > 0 else np.zeros(len(targets))
    return depth[:len(posets)], depth[len(posets):], n_ufg


def tail_probabilities_reference(posets, nu, prefixes, n: int, targets=(), max_size=None):
    """Twin of ``_kernels.posets.ufg_sample_tail`` in expectation.

    The kernel draws S = P + T (P an open prefix, T a non-empty set of larger indices)
    with probability w(S) / R, w(S) = prod nu over S, R = sum of w over all such S. This
    lists every such S and returns the exact probabilities that a draw is ufg, and that
    it is ufg with each target in gamma(S), by the definitions (:func:`is_ufg`,
    :func:`closure`). ``max_size``: larger sets count as not ufg, like the kernel.
    """
    m = len(posets)
    nu = np.asarray(nu, dtype=float)
    total = 0.0
    p_ufg = 0.0
    p_target = np.zeros(len(targets))
    for prefix in prefixes:
        prefix = [int(i) for i in prefix]
        later = range(prefix[-1] + 1, m)
        for size in range(1, len(later) + 1):
            for extra in combinations(later, size):
                members = prefix + list(extra)
                weight = float(np.prod(nu[members]))
                total += weight
                if max_size is not None and len(members) > max_size:
                    continue
                subset = [posets[i] for i in members]
                if not is_ufg(subset, n):
                    continue
                p_ufg += weight
                gamma = closure(subset, n)
                for t, p in enumerate(targets):
                    if p in gamma:
                        p_target[t] += weight
    return p_ufg / total, p_target / total
