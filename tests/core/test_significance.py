"""Permutation test of a Pareto improvement: kernels vs twins, exact null distribution vs
scipy.stats.permutation_test, hand-worked cases, reproducibility, progress/cancel, power."""

import moocore
import numpy as np
import pytest
from scipy.stats import permutation_test

from copa_dash.core import significance
from copa_dash.core._kernels import significance as kernels
from copa_dash.core._reference import significance as reference
from copa_dash.core._reference.indicators import hypervolume_brute
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.significance import (
    CHUNK,
    pareto_improvement_test,
    power_estimate,
    simulated_runs,
)

# Hand-worked: one point per run, r = (4, 4). Baseline (2,2) and (3,1): HV 4 + 1 = 5;
# candidate (1,1) and (1,3): (1,1) dominates (1,3), HV 9. Every one of the C(4,2) = 6
# splits gives |Delta| = 4 (two good and one bad, or the reverse), so p = 1 exactly.
HAND = np.array([[2, 2], [3, 1], [1, 1], [1, 3]], dtype=float)


def test_hand_worked_every_split_as_extreme():
    res = pareto_improvement_test(HAND, "min", run_index=[0, 1, 2, 3], run_side=[0, 0, 1, 1],
                                  ref=[4, 4], n_permutations=300, rng=0)
    assert (res.hv_baseline, res.hv_candidate, res.delta) == (5.0, 9.0, 4.0)
    assert res.delta_relative == pytest.approx(0.8)
    assert res.p_value == 1.0
    np.testing.assert_array_equal(np.abs(res.null_distribution), 4.0)
    np.testing.assert_array_equal(res.run_hv, [4, 3, 9, 3])
    np.testing.assert_allclose(res.run_hv_mean, [3.5, 6.0])
    np.testing.assert_allclose(res.run_hv_sd, [np.sqrt(0.5), np.sqrt(18)])
    assert res.n_runs == (2, 2) and res.n_partitions == 6 and res.ref_rule == "given"
    assert not res.config_means and not res.cancelled


def test_hand_worked_config_means():
    # Two configs (0, 1) per run; r = (10, 10).
    # Baseline runs: config 0 at (4, 6) and (6, 4) -> mean (5, 5); config 1 at (8, 2) twice.
    # Candidate runs: config 0 at (2, 4) and (4, 2) -> mean (3, 3); config 1 at (6, 1), (6, 3)
    # -> mean (6, 2). HV baseline: front (5,5), (8,2): 5 x 5 + 2 x 3 = 31;
    # candidate: (3,3), (6,2): 7 x 7 + 4 x 1 = 53.
    pts = np.array([[4, 6], [8, 2], [6, 4], [8, 2], [2, 4], [6, 1], [4, 2], [6, 3]], float)
    runs = np.repeat([0, 1, 2, 3], 2)
    configs = np.tile([0, 1], 4)
    res = pareto_improvement_test(pts, "min", run_index=runs, run_side=[0, 0, 1, 1],
                                  config_index=configs, ref=[10, 10], n_permutations=50, rng=1)
    assert res.config_means
    assert (res.hv_baseline, res.hv_candidate) == (31.0, 53.0)
    # Without configs the sides pool their rows instead of averaging them.
    pooled = pareto_improvement_test(pts, "min", run_index=runs, run_side=[0, 0, 1, 1],
                                     ref=[10, 10], n_permutations=50, rng=1)
    assert pooled.hv_baseline == pytest.approx(hypervolume_brute(pts[:4], np.array([10., 10.])))
    assert pooled.hv_candidate == pytest.approx(hypervolume_brute(pts[4:], np.array([10., 10.])))


def _random_design(rng, n_runs, k, config):
    rows_per_run = rng.integers(1, 5, size=n_runs)
    run_index = np.repeat(np.arange(n_runs), rows_per_run)
    pts = rng.integers(0, 6, size=(run_index.size, k)).astype(float)
    configs = rng.integers(0, 3, size=run_index.size) if config else None
    side = rng.permutation(np.arange(n_runs) % 2)
    return pts, run_index, side, configs


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("config", [False, True])
def test_kernels_match_twins(seed, k, config):
    rng = np.random.default_rng(seed)
    pts, run_index, side, configs = _random_design(rng, int(rng.integers(2, 7)), k, config)
    design, labels0, *_ = significance._prepare(pts, None, run_index, side, configs, None, "range")
    labels = np.array([rng.permutation(labels0) for _ in range(8)], dtype=np.int8)
    if config:
        for lab in labels:
            for s in (0, 1):
                np.testing.assert_allclose(
                    kernels.mean_side_points(design.sums, design.counts, lab, s),
                    reference.mean_side_points(design.sums, design.counts, lab, s))
        expected = reference.mean_deltas(design.sums, design.counts, labels, design.ref)
    else:
        for lab in labels:
            for s in (0, 1):
                np.testing.assert_array_equal(
                    kernels.pooled_side_points(design.rows, design.run_start, lab, s),
                    reference.pooled_side_points(design.rows, design.run_start, lab, s))
        expected = reference.pooled_deltas(design.rows, design.run_start, labels, design.ref)
    np.testing.assert_allclose(design.deltas(labels), expected, atol=1e-9)


def test_pooled_prefilter_keeps_the_hypervolume():
    # Dropping rows dominated inside their own run must not change any side's HV.
    rng = np.random.default_rng(4)
    pts, run_index, side, _ = _random_design(rng, 6, 2, False)
    design, labels0, *_ = significance._prepare(pts, None, run_index, side, None, None, "range")
    for s in (0, 1):
        raw = pts[np.isin(run_index, np.flatnonzero(side == s))]
        assert design.side_hypervolume(labels0, s) == pytest.approx(
            hypervolume_brute(raw, design.ref))


@pytest.mark.parametrize("seed, n0, n1, k, config", [
    (0, 3, 3, 2, False), (1, 4, 3, 2, True), (2, 3, 4, 3, False), (3, 4, 4, 3, True)])
def test_exact_null_matches_scipy_permutation_test(seed, n0, n1, k, config):
    """Enumerate every split; scipy's exact null distribution must be the same multiset."""
    rng = np.random.default_rng(seed)
    pts, run_index, _, configs = _random_design(rng, n0 + n1, k, config)
    side = np.array([0] * n0 + [1] * n1)
    design, labels0, *_ = significance._prepare(pts, None, run_index, side, configs, None, "range")

    def statistic(x, y):
        lab = np.zeros(n0 + n1, dtype=np.int8)
        lab[y.astype(int)] = 1
        return design.deltas(lab[None, :])[0]

    runs = np.arange(n0 + n1, dtype=float)
    sp = permutation_test((runs[:n0], runs[n0:]), statistic, permutation_type="independent",
                          n_resamples=np.inf, vectorized=False)
    every = reference.all_labelings(labels0)
    ours = design.deltas(every)
    assert sp.null_distribution.size == every.shape[0]
    np.testing.assert_allclose(np.sort(ours), np.sort(sp.null_distribution), atol=1e-9)
    res = pareto_improvement_test(pts, None, run_index=run_index, run_side=side,
                                  config_index=configs, n_permutations=4000, rng=seed)
    assert res.delta == pytest.approx(sp.statistic)
    # Monte-Carlo p against the exact p of the full permutation distribution.
    exact = reference.exact_p_value(res.delta, ours)
    se = np.sqrt(exact * (1 - exact) / 4000) + 1 / 4001
    assert abs(res.p_value - exact) < 4 * se


def test_reproducible_with_seed_and_generator():
    rng = np.random.default_rng(9)
    pts, run_index, side, _ = _random_design(rng, 10, 2, False)
    kw = {"run_index": run_index, "run_side": side, "n_permutations": 600}
    a = pareto_improvement_test(pts, **kw, rng=123)
    b = pareto_improvement_test(pts, **kw, rng=123)
    assert a.p_value == b.p_value and a.seed == 123
    np.testing.assert_array_equal(a.null_distribution, b.null_distribution)
    c = pareto_improvement_test(pts, **kw, rng=np.random.default_rng(5))
    d = pareto_improvement_test(pts, **kw, rng=c.seed)
    np.testing.assert_array_equal(c.null_distribution, d.null_distribution)
    e = pareto_improvement_test(pts, **kw)
    f = pareto_improvement_test(pts, **kw, rng=e.seed)
    assert e.p_value == f.p_value


def test_directions_unused_runs_and_moocore():
    rng = np.random.default_rng(2)
    pts, run_index, side, _ = _random_design(rng, 8, 3, False)
    base = pareto_improvement_test(pts, "min", run_index=run_index, run_side=side,
                                   n_permutations=300, rng=0)
    flipped = pts * [1, -1, 1]
    other = pareto_improvement_test(flipped, ["min", "max", "min"], run_index=run_index,
                                    run_side=side, n_permutations=300, rng=0)
    np.testing.assert_allclose(other.null_distribution, base.null_distribution)
    np.testing.assert_allclose(other.ref, base.ref * [1, -1, 1])
    # An unused run (side -1) with extreme rows changes nothing when r is given.
    extra = np.vstack([pts, [[-50, -50, -50]]])
    with_unused = pareto_improvement_test(
        extra, run_index=np.append(run_index, 8), run_side=np.append(side, -1),
        ref=base.ref, n_permutations=300, rng=0)
    np.testing.assert_allclose(with_unused.null_distribution, base.null_distribution)
    assert np.isnan(with_unused.run_hv[8])
    for s, hv in ((0, base.hv_baseline), (1, base.hv_candidate)):
        rows = pts[np.isin(run_index, np.flatnonzero(side == s))]
        assert hv == pytest.approx(moocore.hypervolume(rows, ref=base.ref))


def test_reference_rules():
    pts = np.array([[1.0, 0.5], [10.0, 0.9], [4.0, 0.7], [2.0, 0.6]])
    kw = {"run_index": [0, 1, 2, 3], "run_side": [0, 0, 1, 1], "n_permutations": 10, "rng": 0}
    by_range = pareto_improvement_test(pts, ["min", "max"], **kw)
    np.testing.assert_allclose(by_range.ref, [10.9, 0.46])   # nadir (10, 0.5) + 10% range
    worst = pareto_improvement_test(pts, ["min", "max"], ref_rule="worst-multiple", **kw)
    np.testing.assert_allclose(worst.ref, [11.0, 0.45])      # 1.1 x 10, 0.9 x 0.5
    assert worst.ref_rule == "worst-multiple"


def test_progress_and_cancel():
    rng = np.random.default_rng(0)
    pts, run_index, side, _ = _random_design(rng, 8, 2, False)
    fractions = []
    res = pareto_improvement_test(pts, run_index=run_index, run_side=side,
                                  n_permutations=3 * CHUNK + 10, rng=0, progress=fractions.append)
    assert fractions == pytest.approx([CHUNK / 760, 2 * CHUNK / 760, 3 * CHUNK / 760, 1.0])
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 2

    stopped = pareto_improvement_test(pts, run_index=run_index, run_side=side,
                                      n_permutations=5000, rng=0, cancel=cancel)
    assert stopped.cancelled and stopped.n_permutations == 2 * CHUNK
    np.testing.assert_array_equal(stopped.null_distribution, res.null_distribution[:2 * CHUNK])


def test_four_objectives_use_the_general_hypervolume():
    rng = np.random.default_rng(8)
    pts, run_index, side, _ = _random_design(rng, 4, 4, False)
    design, labels0, *_ = significance._prepare(pts, None, run_index, side, None, None, "range")
    labels = reference.all_labelings(labels0)
    expected = reference.pooled_deltas(design.rows, design.run_start, labels, design.ref)
    np.testing.assert_allclose(design.deltas(labels), expected, atol=1e-9)


@pytest.mark.parametrize("kwargs, message", [
    ({"run_side": [0, 0, 0, 0]}, "at least one run to each side"),
    ({"run_side": [0, 1, 2, 1]}, "'run_side' values"),
    ({"run_side": [0, 1, 0, 1, 1]}, "run 4 has side 1"),
    ({"run_index": [0, 1, 2]}, "'run_index' must have length 4"),
    ({"run_index": [0, 1, 2, 9]}, "'run_index' values"),
    ({"n_permutations": 0}, "'n_permutations'"),
    ({"rng": "seed"}, "'rng'"),
    ({"ref_rule": "nadir"}, "'ref_rule'"),
    ({"ref": [1, 2, 3]}, "'ref'"),
    ({"config_index": [0, 1]}, "'config_index'"),
    ({"progress": 3}, "'progress'"),
])
def test_errors_name_the_argument(kwargs, message):
    args = {"run_index": [0, 1, 2, 3], "run_side": [0, 0, 1, 1], "n_permutations": 10}
    args.update(kwargs)
    with pytest.raises(InvalidInputError, match=message):
        pareto_improvement_test(HAND, "min", **args)
    with pytest.raises(InvalidInputError, match="at least 2 objectives"):
        pareto_improvement_test([1.0, 2.0], run_index=[0, 1], run_side=[0, 1])


def test_simulated_design_shape():
    y, runs, side = simulated_runs(np.random.default_rng(0), n_seeds=3, points_per_run=4,
                                   effect=0.0, noise_sd=0.0, n_objectives=3)
    assert y.shape == (24, 3) and runs.max() == 5 and side.tolist() == [0, 0, 0, 1, 1, 1]
    np.testing.assert_allclose(np.linalg.norm(1 - y, axis=1), 1.0)  # on the unit sphere


def test_power_extremes():
    # A huge effect is always detected; with 2 seeds per side only 6 splits exist and
    # p >= 2/6 > 0.05, so the power is 0 whatever the effect.
    strong = power_estimate(n_seeds=5, points_per_run=5, effect=1.0, noise_sd=0.01,
                            n_simulations=20, n_permutations=200, rng=0)
    assert strong.power == 1.0 and strong.ci_low > 0.8
    tiny = power_estimate(n_seeds=2, points_per_run=5, effect=1.0, noise_sd=0.01,
                          n_simulations=20, n_permutations=200, rng=0)
    assert tiny.power == 0.0 and tiny.ci_high < 0.2
    null = power_estimate(n_seeds=5, points_per_run=10, effect=0.0, noise_sd=0.05,
                          n_simulations=100, n_permutations=200, rng=1)
    assert null.ci_low <= 0.05 and null.power <= 0.15  # the size stays near alpha under H0
    with pytest.raises(InvalidInputError, match="'alpha'"):
        power_estimate(n_seeds=5, points_per_run=10, effect=0.1, noise_sd=0.1, alpha=1.5)


def test_doctests():
    import doctest
    assert doctest.testmod(significance).failed == 0
