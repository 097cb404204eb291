"""Compiled loops for dominance posets and the ufg depth. No checks, no raising.

Posets are strict orders on M = {0, ..., n-1}, n <= 64, stored as ``n`` uint64 rows:
bit j of row i is set iff i is above j. Intersection and union are row-wise AND / OR,
inclusion is ``a & ~b == 0`` on every row.

Twins in ``copa_dash/core/_reference/posets.py`` (the brute-force oracle).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def dominance_relations(values):
    """(T, n, C) min-oriented values -> above (T, n, n) and tied (T, n, n) booleans."""
    n_tasks, n, n_crit = values.shape
    above = np.zeros((n_tasks, n, n), dtype=np.bool_)
    tied = np.zeros((n_tasks, n, n), dtype=np.bool_)
    for t in range(n_tasks):
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                no_worse = True
                better = False
                for c in range(n_crit):
                    a = values[t, i, c]
                    b = values[t, j, c]
                    if a > b:
                        no_worse = False
                        break
                    if a < b:
                        better = True
                if no_worse and better:
                    above[t, i, j] = True
                elif no_worse:
                    tied[t, i, j] = True
    return above, tied


@njit(cache=True)
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def _lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return np.int64(_popcount((x & (~x + _ONE)) - _ONE))


@njit(cache=True)
def _satisfied(t, only_in, absent_in, a, n):
    """Does the relation t witness member a (t has a pair only a has, or lacks a pair
    every other member has)?"""
    for r in range(n):
        if t[r] & only_in[a, r]:
            return True
        if absent_in[a, r] & ~t[r]:
            return True
    return False


@njit(cache=True)
def _closure_fits(src, r, c, join, n):
    """True when the poset ``src`` with the pair (c, r) added, closed transitively (every
    row that reaches r gains c and what c reaches), stays inside ``join``."""
    add = (_ONE << np.uint64(c)) | src[c]
    for x in range(n):
        if (x == r or (src[x] >> np.uint64(r)) & _ONE) and (src[x] | add) & ~join[x]:
            return False
    return True


@njit(cache=True)
def _closed_into(src, r, c, join, n, t):
    """:func:`_closure_fits` and :func:`_add_closed` in one pass, for a ``t`` that is not
    ``src``: True and t set when the closed poset stays inside join, else False (t spoiled)."""
    add = (_ONE << np.uint64(c)) | src[c]
    for x in range(n):
        row = src[x]
        if x == r or (row >> np.uint64(r)) & _ONE:
            row = row | add
            if row & ~join[x]:
                return False
        t[x] = row
    return True


@njit(cache=True)
def _add_closed(src, r, c, n, t):
    """``t`` = ``src`` with the pair (c, r) added and closed (``t`` may be ``src``)."""
    add = (_ONE << np.uint64(c)) | src[c]
    for x in range(n):
        row = src[x]
        t[x] = row | add if x == r or (row >> np.uint64(r)) & _ONE else row


@njit(cache=True)
def _warm_witness(prev, join, only_in, absent_in, k, n, t):
    """Fast path when ``prev`` witnessed the set without its last member: prev lies in
    [meet, join] of the larger set too, and only a pair of the last member alone can
    witness it, so try prev + each such pair (closed, inside join). True if one
    witnesses every member (t holds it), False if unsure."""
    last = k - 1
    for r in range(n):
        bits = only_in[last, r]
        while bits != _ZERO:
            c = _lowest_bit(bits)
            bits = bits & (bits - _ONE)
            if (prev[c] >> np.uint64(r)) & _ONE or not _closed_into(prev, r, c, join, n, t):
                continue
            ok = True
            for a in range(k - 1):
                if not _satisfied(t, only_in, absent_in, a, n):
                    ok = False
                    break
            if ok:
                return True
    return False


@njit(cache=True)
def _greedy_witness(start, join, only_in, absent_in, k, n, t, first):
    """Fast path of :func:`_union_free`: from t = start (a poset between meet and join),
    one pass over the members (``first`` first), giving each member that t does not
    witness the first pair of only_in that keeps t a poset inside join; True if t then
    witnesses every member (a proof), False if unsure."""
    for r in range(n):
        t[r] = start[r]
    for step in range(k):
        a = (step + first) % k
        if _satisfied(t, only_in, absent_in, a, n):
            continue
        placed = False
        for r in range(n):
            bits = only_in[a, r]
            while bits != _ZERO:
                c = _lowest_bit(bits)
                bits = bits & (bits - _ONE)
                if (t[c] >> np.uint64(r)) & _ONE:
                    continue
                if _closure_fits(t, r, c, join, n):
                    _add_closed(t, r, c, n, t)
                    placed = True
                    break
            if placed:
                break
        if not placed:
            return False
    for a in range(k):
        if not _satisfied(t, only_in, absent_in, a, n):
            return False
    return True


@njit(cache=True)
def _union_free(meet, join, only_in, absent_in, k, n, t_stack, u_stack, cand, tried, above,
                found):
    """Is there a poset p with meet <= p <= join outside every gamma(S minus one member)?

    p avoids gamma(S minus a) iff p has a pair of ``only_in[a]`` (pairs of a alone) or
    lacks a pair of ``absent_in[a]`` (pairs of all members but a). Depth-first search
    with a lower bound t (a poset, initially meet) and an upper bound u (initially
    join): while some member a is not witnessed by t, every answer between t and u
    must hold a pair e of only_in[a] & u (pairs only grow, so the absence witnesses
    t lacks are lost for good); branch on the member with the fewest such pairs, the
    child's t being the transitive closure of t + e (cycles and relations leaving u
    are discarded). Once the branch of e has failed, e is removed from u for the
    remaining siblings, so no relation is searched twice. A node whose t witnesses
    every member returns t as the answer. Depth <= k: each step witnesses a member.
    """
    for r in range(n):
        t_stack[0, r] = meet[r]
        u_stack[0, r] = join[r]
    depth = 0
    fresh = True
    while True:
        t = t_stack[depth]
        u = u_stack[depth]
        if fresh:
            # above[r]: the elements above r in t (column r); a pair (r, c) with c
            # above r closes a cycle
            for r in range(n):
                above[r] = _ZERO
            for x in range(n):
                row = t[x]
                while row != _ZERO:
                    y = _lowest_bit(row)
                    row = row & (row - _ONE)
                    above[y] |= _ONE << np.uint64(x)
            best = -1
            best_count = np.uint64(65 * 64)
            for a in range(k):
                if _satisfied(t, only_in, absent_in, a, n):
                    continue
                count = _ZERO
                for r in range(n):
                    bits = only_in[a, r] & u[r] & ~above[r]
                    while bits != _ZERO:
                        c = _lowest_bit(bits)
                        bits = bits & (bits - _ONE)
                        if not t[c] & ~u[r]:
                            count += _ONE
                if count < best_count:
                    best_count = count
                    best = a
                    if count == _ZERO:
                        break
            if best == -1:
                for r in range(n):
                    found[r] = t[r]
                return True
            for r in range(n):
                cand[depth, r] = only_in[best, r] & u[r] & ~above[r]
        advanced = False
        for r in range(n):
            while cand[depth, r] != _ZERO:
                bits = cand[depth, r]
                c = _lowest_bit(bits)
                cand[depth, r] = bits & (bits - _ONE)
                if not (u[r] >> np.uint64(c)) & _ONE:  # excluded by a failed sibling
                    continue
                if (t[c] >> np.uint64(r)) & _ONE:  # c is above r already: a cycle
                    continue
                add = (_ONE << np.uint64(c)) | t[c]
                ok = True
                for x in range(n):
                    row = t[x]
                    if x == r or (row >> np.uint64(r)) & _ONE:
                        row = row | add
                        if row & ~u[x]:
                            ok = False
                            break
                    t_stack[depth + 1, x] = row
                if ok:
                    for x in range(n):
                        u_stack[depth + 1, x] = u[x]
                    tried[depth, 0] = r  # remember the pair being tried
                    tried[depth, 1] = c
                    advanced = True
                    break
            if advanced:
                break
        if advanced:
            depth += 1
            fresh = True
        else:
            if depth == 0:
                return False
            # the branch of pair (r, c) failed: exclude it for the siblings
            depth -= 1
            r = tried[depth, 0]
            c = tried[depth, 1]
            u_stack[depth, r] &= ~(_ONE << np.uint64(c))
            fresh = False


@njit(cache=True)
def _set_masks(rows, members, k, n, pre_and, pre_or, suf_and, suf_or, only_in, absent_in,
               meet, join):
    """Intersection, union, and per member the pairs only it has (``only_in``) and the
    pairs all others have but it lacks (``absent_in``) of the set ``members[:k]``.
    Returns False when some member has neither (then no superset is ufg)."""
    for r in range(n):
        pre_and[0, r] = _ALL
        pre_or[0, r] = _ZERO
        suf_and[k, r] = _ALL
        suf_or[k, r] = _ZERO
    for a in range(k):
        for r in range(n):
            pre_and[a + 1, r] = pre_and[a, r] & rows[members[a], r]
            pre_or[a + 1, r] = pre_or[a, r] | rows[members[a], r]
    for a in range(k - 1, -1, -1):
        for r in range(n):
            suf_and[a, r] = suf_and[a + 1, r] & rows[members[a], r]
            suf_or[a, r] = suf_or[a + 1, r] | rows[members[a], r]
    for r in range(n):
        meet[r] = pre_and[k, r]
        join[r] = pre_or[k, r]
    for a in range(k):
        any_witness = False
        for r in range(n):
            absent_in[a, r] = pre_and[a, r] & suf_and[a + 1, r] & ~meet[r]
            only_in[a, r] = join[r] & ~(pre_or[a, r] | suf_or[a + 1, r])
            if absent_in[a, r] | only_in[a, r]:
                any_witness = True
        if not any_witness:
            return False
    return True


@njit(cache=True)
def _in_closure(meet, join, target, n):
    """meet <= target <= join (target is a poset, so: target in gamma(S))."""
    for r in range(n):
        if (meet[r] & ~target[r]) | (target[r] & ~join[r]):
            return False
    return True


@njit(cache=True)
def _workspace(k, n):
    """The scratch arrays of :func:`_set_masks`, :func:`_greedy_witness` and
    :func:`_union_free` for sets of up to ``k`` members over ``n`` words of pairs: members,
    pre_and, pre_or, suf_and, suf_or, only_in, absent_in, meet, join, t_stack, u_stack,
    cand, tried, above, found."""
    wide = np.empty((k + 1, n), dtype=np.uint64)
    return (np.empty(k, dtype=np.int64), wide, np.empty_like(wide), np.empty_like(wide),
            np.empty_like(wide), np.empty((k, n), dtype=np.uint64),
            np.empty((k, n), dtype=np.uint64), np.empty(n, dtype=np.uint64),
            np.empty(n, dtype=np.uint64), np.empty_like(wide), np.empty_like(wide),
            np.empty_like(wide), np.empty((k + 1, 2), dtype=np.int64),
            np.empty(n, dtype=np.uint64), np.empty(n, dtype=np.uint64))


@njit(cache=True, nogil=True)
def ufg_level_chunk(rows, nu, tail, targets, frontier, witness, max_size, numer,
                    out_frontier, out_witness):
    """Extend each set of ``frontier`` by one larger index; test and weigh the new sets.

    Parameters
    ----------
    rows : (m, n) uint64, the distinct observed posets.
    nu : (m,) float64, their empirical frequencies.
    tail : (m + 1,) float64, tail[j] = prod_{i >= j} (1 + nu_i).
    targets : (P, n) uint64, posets whose depth is accumulated.
    frontier : (F, s) int64, sorted member indices of sets of size s (s >= 1) that
        may have ufg supersets.
    witness : (F, n + 1) uint64, per frontier set a poset witnessing that it is ufg
        (in columns :n) when column n is 1; a hint that speeds up its supersets.
    max_size : int, no ufg set has more members (max_ufg_size in ufg_depth.py).
    numer : (P,) float64, accumulated in place: weight of ufg sets whose closure holds
        each target.
    out_frontier : (F * m, s + 1) int64 buffer for the sets of size s + 1 that pass the
        hereditary witness test and may still grow.
    out_witness : (F * m, n + 1) uint64 buffer, their witnesses as in ``witness``.

    Returns
    -------
    n_out, denom, n_ufg, open_mass
        Rows written to ``out_frontier``; total weight and number of the ufg sets of
        size s + 1 found; sum over the written sets S of w(S) * (tail[max S + 1] - 1),
        the largest weight their proper supersets can carry.
    """
    m, n = rows.shape
    n_front, s = frontier.shape
    k = s + 1
    n_targets = targets.shape[0]
    (members, pre_and, pre_or, suf_and, suf_or, only_in, absent_in, meet, join, t_stack,
     u_stack, cand, tried, above, found) = _workspace(k, n)
    n_out = 0
    denom = 0.0
    n_ufg = 0
    open_mass = 0.0
    for f in range(n_front):
        base_weight = 1.0
        for a in range(s):
            members[a] = frontier[f, a]
            base_weight *= nu[members[a]]
        for j in range(frontier[f, s - 1] + 1, m):
            members[s] = j
            weight = base_weight * nu[j]
            if not _set_masks(rows, members, k, n, pre_and, pre_or, suf_and, suf_or,
                              only_in, absent_in, meet, join):
                continue  # hereditary: no superset can be ufg either
            has_prev = k > 2 and witness[f, n] != _ZERO
            is_ufg = ((has_prev and _warm_witness(witness[f], join, only_in, absent_in, k, n,
                                                  found))
                      or (has_prev and _greedy_witness(witness[f], join, only_in, absent_in, k,
                                                       n, found, k - 1))
                      or _greedy_witness(meet, join, only_in, absent_in, k, n, found, 0)
                      or _union_free(meet, join, only_in, absent_in, k, n, t_stack, u_stack,
                                     cand, tried, above, found))
            if is_ufg:
                n_ufg += 1
                denom += weight
                for p in range(n_targets):
                    if _in_closure(meet, join, targets[p], n):
                        numer[p] += weight
            if k < max_size and j + 1 < m:
                for a in range(k):
                    out_frontier[n_out, a] = members[a]
                for r in range(n):
                    out_witness[n_out, r] = found[r] if is_ufg else _ZERO
                out_witness[n_out, n] = _ONE if is_ufg else _ZERO
                n_out += 1
                open_mass += weight * (tail[j + 1] - 1.0)
    return n_out, denom, n_ufg, open_mass


@njit(cache=True, nogil=True)
def ufg_sample_tail(rows, nu, targets, prefixes, cum_mass, max_size, n_samples, seed, hits):
    """Draw supersets of the open ``prefixes`` with probability proportional to
    w(S) = prod nu, and count the ufg ones and, per target, those whose closure holds it.

    A prefix P is drawn with probability proportional to its mass w(P) (E_P - 1),
    E_P = prod_{j > max P} (1 + nu_j) (``cum_mass`` is the running sum of the masses),
    then each j > max P joins with probability nu_j / (1 + nu_j), redrawn until at least
    one joined: the set S = P + T then has probability w(S) / sum of masses, and every
    unexamined set with a kept prefix is reachable by exactly one route.

    Parameters
    ----------
    rows, nu, targets, max_size : as in :func:`ufg_level_chunk`.
    prefixes : (F, s) int64, sorted open sets (examined, their supersets not).
    cum_mass : (F,) float64, cumulative masses of the prefixes.
    n_samples : int; seed : int, seeds this thread's generator.
    hits : (P,) int64, accumulated in place.

    Returns
    -------
    int, the number of drawn sets that are ufg.
    """
    np.random.seed(seed)
    m, n = rows.shape
    n_front, s = prefixes.shape
    n_targets = targets.shape[0]
    total = cum_mass[n_front - 1]
    join_prob = nu / (1.0 + nu)
    (members, pre_and, pre_or, suf_and, suf_or, only_in, absent_in, meet, join, t_stack,
     u_stack, cand, tried, above, found) = _workspace(m, n)
    n_ufg = 0
    for _ in range(n_samples):
        f = np.searchsorted(cum_mass, np.random.random() * total, side="right")
        if f >= n_front:
            f = n_front - 1
        for a in range(s):
            members[a] = prefixes[f, a]
        k = s
        while k == s:
            for j in range(prefixes[f, s - 1] + 1, m):
                if np.random.random() < join_prob[j]:
                    members[k] = j
                    k += 1
        if k > max_size:
            continue
        if not _set_masks(rows, members, k, n, pre_and, pre_or, suf_and, suf_or, only_in,
                          absent_in, meet, join):
            continue
        if (_greedy_witness(meet, join, only_in, absent_in, k, n, found, 0)
                or _union_free(meet, join, only_in, absent_in, k, n, t_stack, u_stack, cand,
                               tried, above, found)):
            n_ufg += 1
            for p in range(n_targets):
                if _in_closure(meet, join, targets[p], n):
                    hits[p] += 1
    return n_ufg
