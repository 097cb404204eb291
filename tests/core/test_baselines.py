"""Baselines: hand-worked values, AHP against App. A with numpy.linalg.eig, errors."""

import math

import numpy as np
import pytest

from copa_dash.core import baselines
from copa_dash.core._kernels import baselines as kernels
from copa_dash.core._reference import baselines as reference
from copa_dash.core.baselines import baseline_scores, baseline_select, normalised_objectives
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.ranks import cdf_transform

# objective 0 minimised, objective 1 maximised
POINTS = np.array([[2.0, 10.0],
                   [4.0, 5.0],
                   [1.0, 2.0],
                   [8.0, 8.0]])
DIRS = ["min", "max"]
W = np.array([0.25, 0.75])


def test_sum_on_raw_oriented_values():
    assert baseline_scores(POINTS, DIRS, W, method="sum").tolist() == \
        [0.5 - 7.5, 1.0 - 3.75, 0.25 - 1.5, 2.0 - 6.0]


def test_delta_relative_to_the_ideal_and_to_a_reference_row():
    # ideal: 1 (min) and 10 (max); Delta_0 = (y - 1) / 1, Delta_1 = (10 - y) / 10
    phi = normalised_objectives(POINTS, DIRS, method="delta")
    assert phi == pytest.approx(np.array([[1.0, 0.0], [3.0, 0.5], [0.0, 0.8], [7.0, 0.2]]))
    assert baseline_scores(POINTS, DIRS, W, method="delta") == pytest.approx(phi @ W)
    # reference row 1 (4, 5): Delta_0 = (y - 4) / 4, Delta_1 = (5 - y) / 5; it scores 0
    ref = normalised_objectives(POINTS, DIRS, method="delta", reference=1)
    assert ref == pytest.approx(np.array([[-0.5, -1.0], [0.0, 0.0], [-0.75, 0.6], [1.0, -0.6]]))


def test_norm_maps_ideal_to_zero_nadir_to_one_and_constant_columns_to_zero():
    phi = normalised_objectives([[2.0, 3.0, 5.0], [4.0, 3.0, 1.0], [3.0, 3.0, 3.0]],
                                ["min", "min", "max"], method="norm")
    assert phi.tolist() == [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.5, 0.0, 0.5]]


def test_maxnorm_follows_eq_14_and_saw_is_its_weighted_sum():
    z = normalised_objectives(POINTS, DIRS, method="maxnorm")
    # min objective: y / min y; max objective: max y / y
    assert z == pytest.approx(np.array([[2.0, 1.0], [4.0, 2.0], [1.0, 5.0], [8.0, 1.25]]))
    assert baseline_scores(POINTS, DIRS, W, method="saw") == pytest.approx(z @ W)
    assert baseline_scores(POINTS, DIRS, W, method="maxnorm") == pytest.approx(z @ W)


def test_normalisations_with_copa_criterion_p():
    phi = normalised_objectives(POINTS, DIRS, method="norm")
    # Eq. 7 of the paper: max_k w_k phi_k
    assert baseline_scores(POINTS, DIRS, W, method="norm", p="inf") == \
        pytest.approx((W * phi).max(axis=1))
    assert baseline_scores(POINTS, DIRS, W, method="norm", p=2) == \
        pytest.approx(np.sqrt(((W * phi) ** 2).sum(axis=1)))
    with pytest.raises(InvalidInputError, match="'p' needs non-negative"):
        baseline_scores(POINTS, DIRS, W, method="delta", reference=1, p=2)


def test_pnorm_is_the_usual_weighted_norm_of_u():
    u = cdf_transform(POINTS, DIRS)
    assert baseline_scores(POINTS, DIRS, W, method="pnorm", p=2) == \
        pytest.approx(np.sqrt((W * u ** 2).sum(axis=1)))
    assert baseline_scores(POINTS, DIRS, W, method="pnorm", p=1) == pytest.approx(u @ W)
    assert baseline_scores(POINTS, DIRS, [1.0, 0.0], method="pnorm", p="inf") == \
        pytest.approx(u[:, 0])
    # large p does not underflow: tends to max over the weighted objectives
    assert baseline_scores(POINTS, DIRS, W, method="pnorm", p=1e4) == \
        pytest.approx(u.max(axis=1), rel=1e-3)


def test_ahp_hand_worked_two_rows():
    # z = [1, 2]: A = [[1, 1/9], [9, 1]] is consistent (A_ij = v_i / v_j), so v ~ (1, 9)
    v = normalised_objectives([[1.0], [2.0]], method="ahp")
    assert v[:, 0] == pytest.approx([0.1, 0.9])
    # z = [1, 2, 4]: A = [[1, 1/5, 1/9], [5, 1, 1/5], [9, 5, 1]]; check A v = lambda v
    v = normalised_objectives([[1.0], [2.0], [4.0]], method="ahp")[:, 0]
    a = np.array([[1, 1 / 5, 1 / 9], [5, 1, 1 / 5], [9, 5, 1]])
    assert a @ v == pytest.approx((a @ v)[0] / v[0] * v) and v.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(6))
def test_ahp_kernel_matches_eigenvector_of_app_a_matrix(seed):
    rng = np.random.default_rng(seed)
    z = rng.integers(1, 6, 40).astype(float) if seed % 2 else rng.lognormal(0, 1.5, 40) + 1.0
    z = z / z.min()
    want = reference.ahp_priorities(z)
    got = kernels.ahp_priorities(np.log(z))
    assert got == pytest.approx(want, rel=1e-10, abs=1e-13)
    assert got.sum() == pytest.approx(1.0)
    # a larger (worse) z gets a larger priority, equal z an equal one
    order = np.argsort(z, kind="stable")
    assert np.all(np.diff(got[order]) >= -1e-15)


def test_ahp_constant_column_and_single_row():
    assert kernels.ahp_priorities(np.zeros(4)).tolist() == [0.25] * 4
    assert kernels.ahp_priorities(np.zeros(1)).tolist() == [1.0]
    assert reference.ahp_priorities(np.ones(4)) == pytest.approx([0.25] * 4)


@pytest.mark.parametrize("seed", range(3))
def test_ahp_scores_follow_app_a_step_by_step(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(1, 9, (25, 3)).astype(float)
    dirs = ["min", "max", "min"]
    w = np.array([0.2, 0.5, 0.3])
    # step 1: max-normalise (Eq. 14); steps 2a-c per objective; step 3 weighted sum
    z = np.column_stack([y[:, 0] / y[:, 0].min(), y[:, 1].max() / y[:, 1],
                         y[:, 2] / y[:, 2].min()])
    v = np.column_stack([reference.ahp_priorities(z[:, k]) for k in range(3)])
    assert baseline_scores(y, dirs, w, method="ahp") == pytest.approx(v @ w, rel=1e-10)
    assert baseline_select(y, dirs, w, method="ahp") == int(np.argmin(v @ w))


def test_ahp_row_limit(monkeypatch):
    monkeypatch.setattr(baselines, "AHP_MAX_ROWS", 3)
    with pytest.raises(InvalidInputError, match="limited to 3 rows; this table has 4"):
        baseline_scores(POINTS, DIRS, W, method="ahp")


def test_missing_values_score_nan_and_are_left_out_of_each_column():
    pts = np.vstack([POINTS, [[np.nan, 100.0]]])
    for method in ("sum", "delta", "norm", "maxnorm", "saw", "ahp"):
        s = baseline_scores(pts, DIRS, W, method=method)
        assert math.isnan(s[-1]) and not np.isnan(s[:-1]).any()
    # column 1 now has maximum 100: the ideal moves, column 0 is unchanged
    phi = normalised_objectives(pts, DIRS, method="norm")
    assert phi[:4, 0] == pytest.approx(normalised_objectives(POINTS, DIRS, method="norm")[:, 0])
    assert baseline_scores(pts, DIRS, W, method="pnorm", p=1)[:4] == pytest.approx(
        cdf_transform(pts, DIRS)[:4] @ W)


@pytest.mark.parametrize("method", ["sum", "delta", "norm", "maxnorm", "saw", "ahp"])
def test_flipping_a_direction_equals_a_reciprocal_or_negated_column(method):
    rng = np.random.default_rng(1)
    y = rng.integers(1, 9, (15, 2)).astype(float)
    if method in ("maxnorm", "saw", "ahp"):  # positive values only: reciprocal flips order
        flipped = y.copy()
        flipped[:, 1] = 1.0 / y[:, 1]
        want = baseline_scores(flipped, ["min", "max"], W, method=method)
        assert baseline_scores(y, ["min", "min"], W, method=method) == pytest.approx(want)
    else:
        flipped = y * np.array([1.0, -1.0])
        got = baseline_scores(flipped, ["min", "max"], W, method=method) \
            if method != "delta" else normalised_objectives(flipped, ["min", "max"], method=method)
        want = baseline_scores(y, "min", W, method=method) \
            if method != "delta" else normalised_objectives(y, "min", method=method)
        assert got == pytest.approx(want)


def test_select_ties_go_to_table_order_and_eligibility_is_respected():
    pts = [[1.0, 2.0], [2.0, 1.0], [0.0, 5.0]]
    assert baseline_select(pts, "min", [0.5, 0.5], method="sum") == 0  # 1.5, 1.5, 2.5
    assert baseline_select(pts, "min", [0.5, 0.5], method="sum",
                           eligible=np.array([False, True, True])) == 1
    with pytest.raises(InvalidInputError, match="'eligible' selects no row"):
        baseline_select(pts, "min", [0.5, 0.5], method="sum", eligible=np.zeros(3, bool))
    with pytest.raises(InvalidInputError, match="none of the 1 eligible rows"):
        baseline_select([[np.nan, 1.0], [1.0, 1.0]], "min", [0.5, 0.5], method="sum",
                        eligible=np.array([True, False]))


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "topsis"}, "'method' must be one of"),
    ({"method": "pnorm"}, "method 'pnorm' needs 'p'"),
    ({"method": "sum", "p": 2}, "'p' is not used by method 'sum'"),
    ({"method": "norm", "reference": 0}, "'reference' is only used by method 'delta'"),
    ({"method": "delta", "reference": 9}, "'reference' must be a row index from 0 to 2"),
    ({"method": "delta", "reference": 1.0}, "'reference' must be a row index"),
    ({"method": "pnorm", "p": 0.5}, "'p' must be >= 1"),
])
def test_bad_options_name_the_argument(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        baseline_scores([[1.0, 2.0], [2.0, 1.0], [3.0, 3.0]], "min", [0.5, 0.5], **kwargs)


def test_delta_with_zero_ideal_names_the_objective():
    with pytest.raises(InvalidInputError, match="objective 1: the ideal .* is 0"):
        baseline_scores([[1.0, 0.0], [2.0, 1.0]], "min", [0.5, 0.5], method="delta")
    with pytest.raises(InvalidInputError, match="objective 0: the value of reference row 1 is 0"):
        baseline_scores([[1.0, 1.0], [0.0, 2.0]], "min", [0.5, 0.5], method="delta",
                        reference=1)
    with pytest.raises(InvalidInputError, match="'reference' row 1 has no value in objective 0"):
        baseline_scores([[1.0, 1.0], [np.nan, 2.0]], "min", [0.5, 0.5], method="delta",
                        reference=1)


@pytest.mark.parametrize("method", ["maxnorm", "saw", "ahp"])
def test_max_normalisation_needs_positive_values(method):
    with pytest.raises(InvalidInputError, match="objective 1 has -2 in row 0"):
        baseline_scores([[1.0, -2.0], [2.0, 1.0]], "min", [0.5, 0.5], method=method)


def test_bad_points_weights_and_empty_columns():
    with pytest.raises(InvalidInputError, match="'weights' must have length 2"):
        baseline_scores(POINTS, DIRS, [1.0], method="sum")
    with pytest.raises(InvalidInputError, match="'directions' must have length 2"):
        baseline_scores(POINTS, ["min"], W, method="sum")
    with pytest.raises(InvalidInputError, match="objective 1 has no value"):
        baseline_scores([[1.0, np.nan], [2.0, np.nan]], "min", [0.5, 0.5], method="norm")


def test_inputs_are_not_mutated():
    pts = POINTS.copy()
    w = W.copy()
    for method, extra in [("sum", {}), ("delta", {"reference": 2}), ("norm", {}),
                          ("maxnorm", {}), ("saw", {}), ("ahp", {}), ("pnorm", {"p": 2})]:
        baseline_scores(pts, DIRS, w, method=method, **extra)
        baseline_select(pts, DIRS, w, method=method, **extra)
    assert np.array_equal(pts, POINTS) and np.array_equal(w, W)
