"""Partial rankings and ufg depth: against the brute-force oracle that lists every poset,
the authors' own published numbers (paper App. B/C/D, their R package's tests), and
hand-made tables."""

import itertools

import numpy as np
import pytest

from copa_dash.core._kernels import posets as kernels
from copa_dash.core._reference import posets as reference
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.poset_relations import pack_rows
from copa_dash.core.posets import (
    DepthCancelled,
    beats_matrix,
    cover_relation,
    distinct_posets,
    max_ufg_size,
    task_posets,
    top_k_agreement,
    ufg_depth,
)


def as_matrices(pair_sets, n):
    return np.array([reference.pairs_to_relation(p, n) for p in pair_sets], dtype=bool)


def depths_by_poset(result):
    return {reference.relation_to_pairs(r): d for r, d in zip(result.posets, result.depths)}


# ---------------------------------------------------------------- dominance per task
@pytest.mark.parametrize("seed", range(6))
def test_dominance_kernel_matches_reference_with_ties(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 3, (5, 6, int(rng.integers(1, 4)))).astype(float)
    values[:, 4] = values[:, 1]                      # duplicated methods: ties
    above, tied = kernels.dominance_relations(values)
    ref_above, ref_tied = reference.dominance_relations_reference(values)
    np.testing.assert_array_equal(above, ref_above)
    np.testing.assert_array_equal(tied, ref_tied)
    assert tied[:, 1, 4].all() and tied[:, 4, 1].all()


HAND = np.array([
    # task 7: A(0) beats B(1) and C(2) on both; B and C trade off
    [1.0, 5.0], [2.0, 6.0], [3.0, 5.5],
    # task 3: B and C tied on every criterion, A incomparable to both
    [9.0, 1.0], [4.0, 4.0], [4.0, 4.0],
])
HAND_METHODS = [0, 1, 2, 0, 1, 2]
HAND_TASKS = [7, 7, 7, 3, 3, 3]


def test_task_posets_hand_made_table():
    tp = task_posets(HAND, method_index=HAND_METHODS, task_index=HAND_TASKS)
    assert tp.task_ids.tolist() == [7]               # task 3 has a tie: dropped
    assert tp.flagged_ties.tolist() == [3] and tp.dropped.tolist() == [3]
    assert tp.tied_pairs.tolist() == [[3, 1, 2]]
    expected = np.zeros((3, 3), dtype=bool)
    expected[0, 1] = expected[0, 2] = True
    np.testing.assert_array_equal(tp.relations[0], expected)

    kept = task_posets(HAND, method_index=HAND_METHODS, task_index=HAND_TASKS,
                       ties="incomparable")
    assert kept.task_ids.tolist() == [3, 7] and kept.dropped.size == 0
    assert not kept.relations[0].any()               # tie -> incomparable, A trades off
    np.testing.assert_array_equal(kept.relations[1], expected)


def test_task_posets_directions_rows_order_and_no_mutation():
    crit = HAND.copy()
    base = task_posets(crit, method_index=HAND_METHODS, task_index=HAND_TASKS,
                       ties="incomparable")
    flipped = task_posets(-crit, "max", method_index=HAND_METHODS, task_index=HAND_TASKS,
                          ties="incomparable")
    np.testing.assert_array_equal(base.relations, flipped.relations)
    perm = np.random.default_rng(0).permutation(len(crit))
    shuffled = task_posets(crit[perm], method_index=np.array(HAND_METHODS)[perm],
                           task_index=np.array(HAND_TASKS)[perm], ties="incomparable")
    np.testing.assert_array_equal(base.relations, shuffled.relations)
    mixed = task_posets(crit * [1, -1], ["min", "max"], method_index=HAND_METHODS,
                        task_index=HAND_TASKS, ties="incomparable")
    np.testing.assert_array_equal(base.relations, mixed.relations)
    np.testing.assert_array_equal(crit, HAND)


def test_task_posets_missing_method_and_errors():
    rows = HAND[:5]
    with pytest.raises(InvalidInputError, match=r"task 3 has no row for method\(s\) \[2\]"):
        task_posets(rows, method_index=HAND_METHODS[:5], task_index=HAND_TASKS[:5])
    tp = task_posets(rows, method_index=HAND_METHODS[:5], task_index=HAND_TASKS[:5],
                     missing="drop")
    assert tp.task_ids.tolist() == [7] and tp.incomplete.tolist() == [3]
    with pytest.raises(InvalidInputError, match="rows 0 and 1 both give method 0 on task 7"):
        task_posets(HAND, method_index=[0, 0, 2, 0, 1, 2], task_index=HAND_TASKS)
    with pytest.raises(InvalidInputError, match="'method_index' must be in"):
        task_posets(HAND, method_index=HAND_METHODS, task_index=HAND_TASKS, n_methods=2)
    with pytest.raises(InvalidInputError, match="'ties'"):
        task_posets(HAND, method_index=HAND_METHODS, task_index=HAND_TASKS, ties="keep")
    with pytest.raises(InvalidInputError, match="'criteria'"):
        task_posets(np.where(HAND > 8, np.nan, HAND), method_index=HAND_METHODS,
                    task_index=HAND_TASKS)
    with pytest.raises(InvalidInputError, match="'task_index'"):
        task_posets(HAND, method_index=HAND_METHODS, task_index=[0.5] * 6)


# ---------------------------------------------------------------- the oracle itself
def test_oracle_counts_labelled_posets():
    # OEIS A001035: 1, 1, 3, 19, 219 labelled posets on 0..4 elements
    assert [len(reference.all_posets(n)) for n in range(5)] == [1, 1, 3, 19, 219]


# R package ddandrda, tests/testthat/test-ufg_poset.R (the paper authors' code), with
# its 1-based (row, column) entries of reflexive matrices; orientation does not matter.
def r_poset(*entries):
    return frozenset((i - 1, j - 1) for i, j in entries if i != j)


R_POSETS = {
    1: r_poset(),
    2: r_poset((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)),
    3: r_poset((1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (4, 3)),
    4: r_poset((1, 2), (1, 3), (1, 4), (2, 4), (3, 4)),
    5: r_poset((1, 4), (2, 3), (2, 4), (3, 4)),
    6: r_poset((4, 2)), 7: r_poset((3, 2)), 8: r_poset((3, 1)),
    9: r_poset((2, 1), (1, 3), (2, 3)),
}
R_CASES = [  # observed (with duplicates), query, depths, number of distinct ufg sets
    ([1, 2, 4], [1, 2, 4], [1.0, 0.5, 1.0], 2),
    ([1, 4, 5], [1, 2, 3], [0.7, 0.4, 0.0], 4),
    ([6, 7, 8, 9], [6, 7, 8, 9], [0.5, 0.5384615, 0.5384615, 0.5], 8),
    ([1, 2, 2, 4], [1, 2, 4], [1.0, 0.6666667, 1.0], 2),
    ([1, 4, 4, 4, 5, 5], [1, 4, 5], [0.5, 0.8333333, 0.75], 4),
]


@pytest.mark.parametrize("observed, query, expected, n_ufg", R_CASES)
def test_authors_package_values(observed, query, expected, n_ufg):
    sample = as_matrices([R_POSETS[i] for i in observed], 4)
    res = ufg_depth(sample, query=as_matrices([R_POSETS[i] for i in query], 4))
    np.testing.assert_allclose(res.query_depths, expected, atol=1e-7)
    assert res.n_ufg_sets == n_ufg
    distinct = list(dict.fromkeys(R_POSETS[i] for i in observed))
    counts = [observed.count(i) for i in dict.fromkeys(observed)]
    _, ref_query, ref_n = reference.ufg_depth_reference(
        distinct, counts, 4, [R_POSETS[i] for i in query])
    np.testing.assert_allclose(ref_query, expected, atol=1e-7)
    assert ref_n == n_ufg


def test_ufg_tests_of_the_authors_package():
    ufg = {(2, 3): True, (3, 5): True, (2, 5, 4): False, (6, 7, 8, 9): False,
           (6, 7, 8): True, (2, 4): False, (4, 5): True, (1,): False}
    for members, expected in ufg.items():
        assert reference.is_ufg([R_POSETS[i] for i in members], 4) is expected
        res = ufg_depth(as_matrices([R_POSETS[i] for i in members], 4))
        assert (res.n_ufg_sets > 0 and res.largest_size == len(members)) is expected


def test_paper_example_b2():
    sgd, momentum, adam = 0, 1, 2
    p1 = frozenset({(momentum, sgd)})                 # paper: (SGD, Momentum)
    p2 = frozenset({(adam, sgd)})                     # paper: (SGD, Adam)
    p3 = frozenset({(adam, sgd), (adam, momentum), (sgd, momentum)})
    res = ufg_depth(as_matrices([p1, p2, p3], 3))
    # S_obs = {{p1,p2}, {p2,p3}, {p1,p3}} as the paper says; the triple fails (C2)
    # because gamma({p1, p3}) is already gamma of all three.
    assert res.n_ufg_sets == 3 and res.largest_size == 2
    assert reference.is_ufg([p1, p2], 3) and reference.is_ufg([p2, p3], 3)
    assert not reference.is_ufg([p1, p2, p3], 3)
    # p1 and p3 get 2/3 as the paper states. p2 is inside p3, so it also lies in
    # gamma({p1, p3}) (meet = {}, join = p1 | p3 holds p2): by Def. B.1 its depth is 3/3,
    # not the 2/3 the paper's text gives for all three.
    assert p2 in reference.closure([p1, p3], 3)
    np.testing.assert_allclose(res.depths, [2 / 3, 1.0, 2 / 3])
    ref, _, _ = reference.ufg_depth_reference([p1, p2, p3], [1, 1, 1], 3)
    np.testing.assert_allclose(ref, [2 / 3, 1.0, 2 / 3])


# ---------------------------------------------------------------- fast == oracle
@pytest.mark.parametrize("seed", range(40))
def test_fast_matches_oracle_on_random_sets(seed):
    rng = np.random.default_rng(seed)
    n = 3 if seed % 3 == 0 else 4
    everything = reference.all_posets(n)
    m = int(rng.integers(2, 8 if n == 4 else 6))
    chosen = [everything[i] for i in rng.choice(len(everything), m, replace=False)]
    counts = rng.integers(1, 4, m)
    queries = [everything[i] for i in rng.choice(len(everything), 4)]
    ref, ref_query, ref_n = reference.ufg_depth_reference(chosen, counts, n, queries)
    sample = as_matrices([p for p, c in zip(chosen, counts) for _ in range(c)], n)
    sample = sample[rng.permutation(len(sample))]
    res = ufg_depth(sample, query=as_matrices(queries, n))
    got = depths_by_poset(res)
    np.testing.assert_allclose([got[p] for p in chosen], ref, atol=1e-12)
    np.testing.assert_allclose(res.query_depths, ref_query, atol=1e-12)
    assert res.n_ufg_sets == ref_n and res.exact and res.error_bound == 0.0
    assert res.largest_size <= max_ufg_size(n)


@pytest.mark.parametrize("seed", range(8))
def test_fast_matches_oracle_on_dominance_posets(seed):
    # posets from tied integer criteria are close to each other: deep searches
    rng = np.random.default_rng(100 + seed)
    values = rng.integers(0, 3, (8, 4, int(rng.integers(2, 4)))).astype(float)
    rel = kernels.dominance_relations(values)[0]
    d = distinct_posets(rel)
    pairs = [reference.relation_to_pairs(r) for r in d.relations]
    ref, _, ref_n = reference.ufg_depth_reference(pairs, d.counts, 4)
    res = ufg_depth(rel)
    np.testing.assert_allclose(res.depths, ref, atol=1e-12)
    np.testing.assert_allclose(res.observed_depths, ref[d.inverse], atol=1e-12)
    assert res.n_ufg_sets == ref_n


@pytest.mark.parametrize("seed", range(3))
def test_tail_sampler_matches_its_reference_in_expectation(seed):
    rng = np.random.default_rng(seed)
    everything = reference.all_posets(4)
    chosen = [everything[i] for i in rng.choice(len(everything), 7, replace=False)]
    nu = rng.integers(1, 4, 7).astype(float)
    nu /= nu.sum()
    prefixes = np.array([[0, 1], [0, 3], [2, 4], [1, 5]], dtype=np.int64)
    targets = [everything[i] for i in rng.choice(len(everything), 5)]
    p_ufg, p_target = reference.tail_probabilities_reference(chosen, nu, prefixes, 4,
                                                               targets, max_size=6)
    rows = pack_rows(as_matrices(chosen, 4))
    tail = np.append(np.cumprod((1 + nu)[::-1])[::-1], 1.0)
    mass = np.prod(nu[prefixes], axis=1) * (tail[prefixes[:, -1] + 1] - 1)
    hits = np.zeros(len(targets), dtype=np.int64)
    draws = 200_000
    n_ufg = kernels.ufg_sample_tail(rows, nu, pack_rows(as_matrices(targets, 4)), prefixes,
                                    np.cumsum(mass), 6, draws, seed, hits)
    for observed, expected in zip([n_ufg, *hits], [p_ufg, *p_target]):
        sd = np.sqrt(max(expected * (1 - expected), 1e-12) / draws)
        assert abs(observed / draws - expected) <= 5 * sd + 1e-12


def test_size_bound_is_tight_enough_and_respected():
    # the three 2-element posets: {} , a>b, b>a -> only the pairs with {} can be ufg
    res = ufg_depth(as_matrices([frozenset(), {(0, 1)}, {(1, 0)}], 2))
    assert max_ufg_size(2) == 2 and res.largest_size == 2
    assert not reference.is_ufg([frozenset(), frozenset({(0, 1)}), frozenset({(1, 0)})], 2)
    for members in itertools.combinations(reference.all_posets(3), 4):
        if reference.is_ufg(members, 3):                # never: 4 > 3*2/2
            pytest.fail("a ufg set larger than n(n-1)/2")


# ---------------------------------------------------------------- the authors' results
# deepops_Schneideretal_data_test_loss.csv: (performance, speed) of SGD, Momentum, Adam
DEEPOBS = {
    "P1": [(87.4, 51.1), (87.05, 70.5), (87.11, 39.9)],
    "P2": [(38.46, 1), (52.93, 1), (27.83, 1)],
    "P3": [(2, 40.6), (3, 59.1), (1, 40.1)],
    "P4": [(3, 42.5), (2, 40.7), (1, 36)],
    "P5": [(23.8, 1), (59.23, 1), (23, 1)],
    "P6": [(3, 128.7), (2, 72.8), (1, 152.6)],
    "P7": [(3, 28.3), (1, 10.8), (2, 12.1)],
    "P8": [(1, 47.7), (2, 88), (3, 62.8)],
}
MOEA = {  # Wu et al. 2023 MIGD total/1st/2nd/3rd stage for FPS PPS CKPS SPPS HPPCM DSSP DVC
    "FDA1": (
        "0.0525 0.2137 0.0147 0.0136 0.0592 0.2743 0.01 0.0063 0.0297 0.1168 0.009 0.0089 "
        "0.0264 0.1032 0.0082 0.0081 0.0211 0.0813 0.0068 0.0067 0.024 0.0944 0.0072 0.0072 "
        "0.0178 0.0681 0.0066 0.007"
    ),
    "FDA2": (
        "0.0086 0.0201 0.006 0.0056 0.0093 0.0219 0.0067 0.0059 0.0085 0.0183 0.0065 0.006 "
        "0.0087 0.017 0.0067 0.0068 0.0079 0.0172 0.0058 0.0056 0.008 0.0167 0.0061 0.0058 "
        "0.0074 0.016 0.0057 0.0052"
    ),
    "FDA3": (
        "0.0638 0.1971 0.0344 0.0298 0.0843 0.259 0.0436 0.0419 0.0383 0.1222 0.0189 0.0179 "
        "0.0363 0.1323 0.0137 0.0133 0.0275 0.0862 0.0064 0.0061 0.0296 0.112 0.014 0.0098 "
        "0.0258 0.1023 0.0074 0.0077"
    ),
    "FDA4": (
        "0.1421 0.1627 0.1388 0.1356 0.1314 0.1609 0.1258 0.123 0.1184 0.1332 0.1148 0.1149 "
        "0.1095 0.13 0.105 0.1043 0.102 0.1209 0.0969 0.098 0.1058 0.1208 0.1019 0.1026 "
        "0.1011 0.1161 0.0976 0.0973"
    ),
    "dMOP1": (
        "0.008 0.0235 0.0043 0.0043 0.1296 0.5522 0.0528 0.0057 0.0076 0.0181 0.005 0.0051 "
        "0.0099 0.031 0.005 0.0048 0.0068 0.0161 0.0047 0.0046 0.0076 0.0188 0.005 0.005 "
        "0.0064 0.0118 0.0051 0.0051"
    ),
    "dMOP2": (
        "0.0617 0.2542 0.0168 0.0153 0.0659 0.3008 0.0142 0.0061 0.0267 0.1006 0.0092 0.009 "
        "0.0316 0.1263 0.0093 0.009 0.0252 0.1021 0.0069 0.0069 0.0255 0.1035 0.0071 0.0068 "
        "0.0223 0.0848 0.0075 0.0073"
    ),
    "dMOP3": (
        "0.0528 0.2161 0.0146 0.0133 0.0482 0.2173 0.0099 0.0062 0.0277 0.1065 0.0091 0.0089 "
        "0.0279 0.1111 0.0082 0.0081 0.0242 0.0958 0.0078 0.0066 0.024 0.0951 0.0073 0.0071 "
        "0.0288 0.1204 0.0071 0.0069"
    ),
    "F5": (
        "0.3088 1.0718 0.1916 0.0636 0.2816 1.2651 0.079 0.017 0.0322 0.0925 0.0181 0.0178 "
        "0.0319 0.0866 0.0198 0.0182 0.0286 0.0751 0.0164 0.0187 0.0346 0.1081 0.0154 0.0163 "
        "0.0269 0.0653 0.0232 0.0185"
    ),
    "F6": (
        "0.0527 0.1247 0.038 0.0331 0.0525 0.1989 0.0216 0.0138 0.021 0.0468 0.0148 0.0149 "
        "0.0219 0.0514 0.0148 0.015 0.0189 0.0572 0.0098 0.0099 0.0285 0.0864 0.0144 0.0133 "
        "0.0182 0.045 0.0138 0.0144"
    ),
    "F7": (
        "0.1234 0.3422 0.0835 0.0594 0.0923 0.4108 0.0202 0.013 0.0227 0.0595 0.0139 0.014 "
        "0.0212 0.0504 0.0142 0.0143 0.0166 0.0503 0.0088 0.0085 0.0243 0.0974 0.0086 0.009 "
        "0.018 0.0417 0.0104 0.0127"
    ),
    "F8": (
        "0.144 0.1969 0.1302 0.1325 0.1511 0.2317 0.133 0.131 0.156 0.2117 0.1418 0.1437 "
        "0.1456 0.2139 0.1292 0.1295 0.1289 0.1791 0.1163 0.1178 0.1141 0.1436 0.1057 0.1188 "
        "0.1335 0.1413 0.1196 0.1153"
    ),
    "F9": (
        "0.4089 1.1411 0.2311 0.2389 0.5884 2.3269 0.2515 0.0993 0.1476 0.4255 0.0818 0.0815 "
        "0.1019 0.295 0.0503 0.0618 0.0832 0.2553 0.0456 0.0391 0.0723 0.1266 0.062 0.0451 "
        "0.0644 0.111 0.0401 0.0386"
    ),
    "F10": (
        "0.4312 0.5899 0.4191 0.3679 0.5359 1.6713 0.3076 0.225 0.086 0.2988 0.038 0.0329 "
        "0.0729 0.2325 0.035 0.0351 0.0744 0.1824 0.0492 0.0483 0.1196 0.1643 0.1479 0.0905 "
        "0.0931 0.1269 0.0878 0.0944"
    ),
}


def long_table(per_task):
    crit = np.concatenate([np.asarray(v, dtype=float).reshape(len(v), -1)
                           for v in per_task.values()])
    n = len(next(iter(per_task.values())))
    return crit, np.tile(np.arange(n), len(per_task)), np.repeat(np.arange(len(per_task)), n)


def test_deepobs_matches_the_authors_results():
    # paper §3: 8 posets, max depth 0.65 (the tripled one), min 0.29 (LSTM, P8); the
    # repository's DeepOPS__summary.txt prints these to 15 digits.
    crit, meth, task = long_table(DEEPOBS)
    tp = task_posets(crit, method_index=meth, task_index=task)
    assert tp.flagged_ties.size == 0 and len(tp.task_ids) == 8
    res = ufg_depth(tp.relations)
    d = res.observed_depths
    assert res.counts.max() == 3 and len(res.counts) == 6
    np.testing.assert_allclose([d.min(), d.max(), d.mean(), np.median(d)],
                               [0.293838862559242, 0.649289099526066,
                                0.508293838862559, 0.57345971563981], rtol=1e-12)
    assert int(np.argmin(d)) == 7


def test_moea_matches_the_authors_results():
    # paper App. D: 13 unique posets of 7 algorithms on 4 criteria, depths 0.17 .. 0.39;
    # MOEA_summary.txt of the authors' repository to 15 digits.
    rows = {k: np.array(v.split(), dtype=float).reshape(7, 4) for k, v in MOEA.items()}
    crit, meth, task = long_table(rows)
    res = ufg_depth(task_posets(crit, method_index=meth, task_index=task).relations)
    d = res.observed_depths
    assert len(res.counts) == 13
    np.testing.assert_allclose([d.min(), d.max(), d.mean(), np.median(d)],
                               [0.172789668572607, 0.390968080293946,
                                0.215757043699037, 0.18686047147376], rtol=1e-12)


# ---------------------------------------------------------------- approximate, cancel
def medium_sample(seed=0, n=6, tasks=16):
    rng = np.random.default_rng(seed)
    return kernels.dominance_relations(rng.random((tasks, n, 3)))[0]


def test_approximate_mode_honours_its_error_bound():
    sample = medium_sample()
    exact = ufg_depth(sample)
    assert exact.exact and exact.stop_reason == "complete"
    for tol in (0.2, 0.05, 0.01):
        approx = ufg_depth(sample, exact=False, tolerance=tol)
        assert approx.stop_reason in ("tolerance", "complete")
        assert approx.error_bound <= tol
        assert np.abs(approx.depths - exact.depths).max() <= approx.error_bound + 1e-12
        assert approx.n_ufg_sets <= exact.n_ufg_sets


def test_sampled_remainder_honours_its_bound(monkeypatch):
    import copa_dash.core.ufg_depth as module

    sample = medium_sample(seed=4)
    exact = ufg_depth(sample)
    monkeypatch.setattr(module, "_LEVEL_LIMIT", 60)   # force sampling after size 2 or 3
    for seed in range(3):
        approx = ufg_depth(sample, exact=False, tolerance=0.01, confidence=0.999, rng=seed,
                           workers=2)
        assert approx.stop_reason == "sampled" and approx.n_samples > 0
        assert approx.confidence == 0.999 and approx.error_bound <= 0.01
        assert np.abs(approx.depths - exact.depths).max() <= approx.error_bound
    again = ufg_depth(sample, exact=False, tolerance=0.01, confidence=0.999, rng=2, workers=2)
    np.testing.assert_array_equal(again.depths, approx.depths)     # reproducible
    calls = []
    with pytest.raises(DepthCancelled) as info:
        ufg_depth(sample, exact=False, tolerance=1e-4, rng=0,
                  cancel=lambda: calls.append(1) or len(calls) > 3)
    assert info.value.partial.error_bound > 0


def test_time_limit_returns_a_bounded_partial_result():
    sample = medium_sample(seed=1, n=8, tasks=18)
    exact = ufg_depth(sample)
    partial = ufg_depth(sample, max_seconds=1e-9)
    assert partial.stop_reason == "time" and not partial.exact
    assert 0 < partial.error_bound <= 1
    assert np.abs(partial.depths - exact.depths).max() <= partial.error_bound + 1e-12


def test_progress_is_monotone_and_cancel_raises_with_partial():
    sample = medium_sample(seed=2)
    seen = []
    ufg_depth(sample, progress=seen.append)
    assert seen[-1] == 1.0 and all(a <= b + 1e-15 for a, b in itertools.pairwise(seen))
    with pytest.raises(DepthCancelled) as info:
        ufg_depth(sample, cancel=lambda: True)
    assert info.value.partial.stop_reason == "cancelled"
    assert not info.value.partial.exact


def test_depth_properties():
    sample = medium_sample(seed=3)
    res = ufg_depth(sample, query=sample[:3])
    np.testing.assert_allclose(res.query_depths, res.observed_depths[:3])
    perm = np.random.default_rng(0).permutation(len(sample))
    again = ufg_depth(sample[perm])
    np.testing.assert_allclose(again.observed_depths, res.observed_depths[perm])
    relabel = np.random.default_rng(1).permutation(sample.shape[1])   # rename methods
    renamed = ufg_depth(sample[:, relabel][:, :, relabel])
    np.testing.assert_allclose(renamed.observed_depths, res.observed_depths)
    assert ((res.depths >= 0) & (res.depths <= 1)).all()
    # a poset with a pair no observed poset has lies in no closure: depth 0
    unseen = np.argwhere(~sample.any(axis=0) & ~np.eye(sample.shape[1], dtype=bool))
    assert unseen.size
    never = np.zeros_like(sample[0])
    never[tuple(unseen[0])] = True
    assert ufg_depth(sample, query=never).query_depths[0] == 0.0
    threaded = ufg_depth(sample, workers=3)
    np.testing.assert_allclose(threaded.depths, res.depths, rtol=1e-12)
    assert threaded.n_ufg_sets == res.n_ufg_sets
    single = ufg_depth(np.repeat(sample[:1], 4, axis=0))
    assert single.n_ufg_sets == 0 and (single.depths == 0).all() and single.exact


def test_poset_validation():
    good = np.zeros((3, 3), dtype=bool)
    with pytest.raises(InvalidInputError, match="not antisymmetric"):
        ufg_depth(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]))
    with pytest.raises(InvalidInputError, match="not transitive: 0 is above 1 and 1 above 2"):
        ufg_depth(np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]))
    with pytest.raises(InvalidInputError, match="diagonal"):
        ufg_depth(np.diag([True, False, False]))
    with pytest.raises(InvalidInputError, match="0/1"):
        ufg_depth(good + 0.5)
    with pytest.raises(InvalidInputError, match="'query' must be on 3 elements"):
        ufg_depth(good, query=np.zeros((2, 2), dtype=bool))
    with pytest.raises(InvalidInputError, match="'tolerance'"):
        ufg_depth(good, exact=False, tolerance=0)
    with pytest.raises(InvalidInputError, match="'workers'"):
        ufg_depth(good, workers=0)
    with pytest.raises(InvalidInputError, match="'max_seconds'"):
        ufg_depth(good, max_seconds=-1)
    reflexive = ufg_depth(np.eye(3, dtype=bool) | np.array([[0, 1, 1], [0, 0, 0], [0, 0, 0]],
                                                          dtype=bool))
    assert reflexive.posets[0].astype(int).tolist() == [[0, 1, 1], [0, 0, 0], [0, 0, 0]]


# ---------------------------------------------------------------- helpers for the view
def test_beats_matrix_cover_relation_and_agreement():
    crit, meth, task = long_table(DEEPOBS)
    rel = task_posets(crit, method_index=meth, task_index=task).relations
    beats = beats_matrix(rel)
    np.testing.assert_array_equal(beats, rel.sum(axis=0))
    assert beats[2, 0] == 6                       # Adam above SGD on 6 of 8 problems
    assert (beats + beats.T <= 8).all()
    np.testing.assert_allclose(beats_matrix(rel, normalize=True), beats / 8)

    for p in reference.all_posets(4):
        r = reference.pairs_to_relation(p, 4)
        cover = cover_relation(r)
        brute = {(i, j) for i, j in p
                 if not any((i, k) in p and (k, j) in p for k in range(4))}
        assert reference.relation_to_pairs(cover) == brute
        closure = cover.copy()
        for k in range(4):
            closure |= closure[:, [k]] & closure[[k], :]
        np.testing.assert_array_equal(closure, r)

    res = ufg_depth(rel)
    agree = top_k_agreement(res.posets, res.depths, k=2)
    assert agree.indices[0] == int(np.argmax(res.depths))
    top = res.posets[agree.indices]
    np.testing.assert_array_equal(agree.above, top[0] & top[1])
    np.testing.assert_array_equal(agree.never_above, ~(top[0] | top[1]) & ~np.eye(3, dtype=bool))
    assert not (agree.incomparable & agree.above).any()
    with pytest.raises(InvalidInputError, match="'k'"):
        top_k_agreement(res.posets, res.depths, k=0)
