"""Per-system indicators and radar area: hand-worked examples, the paper's tables,
kernel vs reference twin, brute force on random data, invariances and error messages."""

import numpy as np
import pytest

from copa_dash.core import indicators
from copa_dash.core._kernels import indicators as kernels
from copa_dash.core._reference import indicators as reference
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.indicators import (
    Undefined,
    normalized_objectives,
    radar_area,
    system_indicators,
)

# Hand-worked example (2 objectives, minimised, both spanning [0, 10] so z = y / 10):
# system 0: A(0,10) B(5,5) C(10,0) D(6,6); system 1: E(2,9) F(9,3); system 2: no row.
HAND = np.array([[0, 10], [5, 5], [10, 0], [6, 6], [2, 9], [9, 3]], dtype=float)
HAND_SYSTEMS = np.array([0, 0, 0, 0, 1, 1])


def test_hand_worked_minmax():
    res = system_indicators(HAND, "min", system_index=HAND_SYSTEMS, n_systems=3, sigma=0.75)
    # D is dominated by B; the global front is A B C E F.
    assert res.front_mask.tolist() == [True, True, True, False, True, True]
    assert res.global_front_mask.tolist() == [True, True, True, False, True, True]
    # HV (r = 1): A and C lie on r's faces and add 0; B adds 0.5 * 0.5.
    # E adds 0.8 * 0.1, F 0.1 * 0.7, overlapping in [0.9, 1]^2: 0.08 + 0.07 - 0.01.
    np.testing.assert_allclose(res.hv[:2], [0.25, 0.14])
    np.testing.assert_array_equal(res.onvg[:2], [3, 2])
    np.testing.assert_allclose(res.onvg_hat[:2], [1.0, 2 / 3])
    np.testing.assert_allclose(res.onvgr[:2], [0.75, 1.0])
    # sigma = 0.75: |AB| = |BC| = 0.707 < 0.75 < |AC|, so nc = (1, 2, 1), mean 4/3,
    # D_nc = sqrt((1/9 + 4/9 + 1/9) / 2) = 1/sqrt(3); |EF| = 0.92: nc = (0, 0), D_nc = 0.
    d_nc = 1 / np.sqrt(3)
    np.testing.assert_allclose(res.ud_bar[:2], [1 - 1 / (1 + d_nc), 0.0])
    # OS: P spans [0, 1] in both objectives; X_0 too, X_1 spans 0.7 x 0.6.
    np.testing.assert_allclose(res.os[:2], [1.0, 0.42])
    ud0 = 1 - 1 / (1 + d_nc)
    area0 = (0.25 * 1 + 1 * 0.75 + 0.75 * ud0 + ud0 * 1 + 1 * 0.25) / 5
    area1 = (0.14 * 2 / 3 + 2 / 3 * 1 + 0 + 0 + 0.42 * 0.14) / 5
    np.testing.assert_allclose(res.area[:2], [area0, area1])
    assert np.isnan([res.hv[2], res.onvg[2], res.area[2]]).all()
    assert res.reason(2, "hv") == Undefined("no_rows")
    assert res.reason(0, "hv") is None
    np.testing.assert_allclose(res.normalized, HAND / 10)


def test_hand_worked_cdf():
    # u_x: A 0, E 1/6, B 2/6, D 3/6, F 4/6, C 5/6; u_y: C 0, F 1/6, B 2/6, D 3/6, E 4/6, A 5/6.
    res = system_indicators(HAND, "min", system_index=HAND_SYSTEMS, n_systems=2,
                            normalize="cdf")
    expected = np.array([[0, 5], [2, 2], [5, 0], [3, 3], [1, 4], [4, 1]]) / 6
    np.testing.assert_allclose(res.normalized, expected)
    # System 0 front A(0, 5/6) B(1/3, 1/3) C(5/6, 0): 1/6 + 2/3 * 1/2 + 1/6 * 1/3 = 5/9.
    np.testing.assert_allclose(res.hv[0], 5 / 9)
    assert res.normalize == "cdf"


def test_single_point_and_flat_front_reasons():
    res = system_indicators([[0, 4], [4, 0], [2, 2], [1, 3], [3, 3]], "min",
                            system_index=[0, 0, 0, 1, 1], n_systems=2)
    assert np.isnan(res.ud_bar[1]) and np.isnan(res.os[1])
    assert res.reason(1, "ud_bar") == Undefined("few_front_points", n_front=1)
    # Undefined values count as 0 in the area.
    vals = [res.hv[1], res.onvg_hat[1], res.onvgr[1], 0, 0]
    np.testing.assert_allclose(res.area[1], radar_area(vals))
    # The global front is one point repeated: no spread in either objective.
    flat = system_indicators([[1, 1], [1, 1], [2, 3], [3, 2]], system_index=[0, 0, 1, 1],
                             n_systems=2)
    assert np.isnan(flat.os).all()
    # as data, every flat column by its position: the words are the caller's (services)
    assert flat.reason(0, "os") == flat.reason(1, "os") == Undefined("flat_objective",
                                                                     objectives=(0, 1))
    assert not np.isnan(flat.ud_bar).any()


@pytest.mark.parametrize("values, area", [
    ([0.75, 0.84, 0.48, 0.97, 0.003], 0.30),   # Fig. 13, System 1
    ([0.73, 1.00, 0.57, 0.98, 0.003], 0.37),   # Fig. 13, System 2
    ([0.93, 1.00, 0.90, 0.85, 0.89], 0.83),    # Fig. 9, System 1
    ([0.18, 0.50, 0.15, 0.07, 0.14], 0.04),    # Fig. 9, System 2
    ([0.53, 1.00, 0.40, 0.59, 0.09], 0.25),    # Fig. 12, System 1 (OS in 1e-2)
    ([0.02, 0.60, 0.24, 0.39, 0.01], 0.05),    # Fig. 12, System 2
])
def test_radar_area_reproduces_paper_tables(values, area):
    # The tables print inputs to 2 decimals, so the area can differ in the 3rd decimal
    # (Fig. 9: 0.836 from the printed values, 0.83 printed).
    assert radar_area(values) == pytest.approx(area, abs=0.006)


def test_radar_area_fig13_check_of_methods():
    assert round(radar_area([0.75, 0.84, 0.48, 0.97, 0.003]), 2) == 0.30


def test_radar_area_against_surveyor_formula():
    rng = np.random.default_rng(5)
    for n in (3, 5, 8):
        for _ in range(20):
            v = rng.random(n)
            v[rng.random(n) < 0.2] = np.nan
            assert radar_area(v) == pytest.approx(reference.radar_area(v), abs=1e-12)
    assert radar_area(np.ones(5)) == pytest.approx(1.0)
    assert radar_area([1, 0, 1, 0, 0]) == 0.0


@pytest.mark.parametrize("bad, message", [
    ([1, 1], "at least 3 axes"), ([1, -0.1, 1], "non-negative"), ([1, np.inf, 1], "finite")])
def test_radar_area_errors(bad, message):
    with pytest.raises(InvalidInputError, match=message):
        radar_area(bad)


@pytest.mark.parametrize("seed", range(6))
def test_niche_counts_kernel_matches_twin(seed):
    rng = np.random.default_rng(seed)
    pts = rng.integers(0, 4, size=(rng.integers(1, 30), rng.integers(1, 4))).astype(float)
    for sigma in (0.5, 1.0, 1.5, 2.0, 3.0):  # integer distances hit the strict "<" exactly
        np.testing.assert_array_equal(kernels.niche_counts(pts, sigma),
                                      reference.niche_counts(pts, sigma))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("normalize", ["minmax", "cdf"])
def test_matches_brute_force_on_random_integer_data(seed, normalize):
    rng = np.random.default_rng(seed)
    n, k, s = int(rng.integers(4, 25)), int(rng.integers(2, 4)), int(rng.integers(1, 4))
    pts = rng.integers(0, 5, size=(n, k)).astype(float)
    systems = rng.integers(-1, s, size=n)
    systems[0] = 0
    directions = list(rng.choice(["min", "max"], size=k))
    sigma = float(rng.choice([0.1, 0.3, 0.5]))
    res = system_indicators(pts, directions, system_index=systems, n_systems=s,
                            normalize=normalize, sigma=sigma)
    z = normalized_objectives(pts, directions, normalize=normalize, rows=systems >= 0)
    expected = reference.system_indicators(z, systems, s, sigma)
    for name in ("hv", "onvg", "onvg_hat", "onvgr", "ud_bar", "os", "area"):
        np.testing.assert_allclose(getattr(res, name), expected[name], atol=1e-12,
                                   err_msg=name)


def test_invariances():
    rng = np.random.default_rng(11)
    pts = rng.integers(0, 6, size=(30, 3)).astype(float)
    systems = rng.integers(0, 3, size=30)
    base = system_indicators(pts, "min", system_index=systems, n_systems=3, sigma=0.3)
    # Row order does not matter.
    perm = rng.permutation(30)
    shuffled = system_indicators(pts[perm], "min", system_index=systems[perm], n_systems=3,
                                 sigma=0.3)
    # Flipping a direction and negating the column is the same problem.
    flipped = pts.copy()
    flipped[:, 1] *= -1
    negated = system_indicators(flipped, ["min", "max", "min"], system_index=systems,
                                n_systems=3, sigma=0.3)
    # An increasing affine map of a column does not change min-max values.
    scaled = pts.copy()
    scaled[:, 2] = 7 * scaled[:, 2] + 100
    affine = system_indicators(scaled, "min", system_index=systems, n_systems=3, sigma=0.3)
    # The CDF is invariant under any increasing map.
    cdf = system_indicators(pts, "min", system_index=systems, n_systems=3, normalize="cdf")
    cdf_exp = system_indicators(np.exp(pts), "min", system_index=systems, n_systems=3,
                                normalize="cdf")
    for name in ("hv", "onvg", "onvgr", "ud_bar", "os", "area"):
        for other in (shuffled, negated, affine):
            np.testing.assert_allclose(getattr(other, name), getattr(base, name), err_msg=name)
        np.testing.assert_allclose(getattr(cdf_exp, name), getattr(cdf, name), err_msg=name)


def test_unused_rows_do_not_count():
    with_extra = np.vstack([HAND, [[-100, -100]]])
    res = system_indicators(with_extra, system_index=np.append(HAND_SYSTEMS, -1), n_systems=2)
    base = system_indicators(HAND, system_index=HAND_SYSTEMS, n_systems=2)
    np.testing.assert_allclose(res.hv, base.hv)
    assert np.isnan(res.normalized[-1]).all()


@pytest.mark.parametrize("kwargs, message", [
    ({"system_index": [0, 0, 5, 1, 1, 1], "n_systems": 2}, r"\[-1, 1\]"),
    ({"system_index": [0, 1], "n_systems": 2}, "length 6"),
    ({"system_index": [0.5] * 6, "n_systems": 2}, "integers"),
    ({"system_index": [-1] * 6, "n_systems": 2}, "at least one row"),
    ({"system_index": HAND_SYSTEMS, "n_systems": 0}, "'n_systems'"),
    ({"system_index": HAND_SYSTEMS, "n_systems": 2, "sigma": 0}, "'sigma'"),
    ({"system_index": HAND_SYSTEMS, "n_systems": 2, "normalize": "zscore"}, "'normalize'"),
])
def test_errors_name_the_argument(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        system_indicators(HAND, "min", **kwargs)


def test_inputs_not_mutated():
    pts = HAND.copy()
    systems = HAND_SYSTEMS.copy()
    system_indicators(pts, ["max", "min"], system_index=systems, n_systems=2)
    np.testing.assert_array_equal(pts, HAND)
    np.testing.assert_array_equal(systems, HAND_SYSTEMS)


def test_doctests():
    import doctest
    assert doctest.testmod(indicators).failed == 0
