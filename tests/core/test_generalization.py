"""Validation -> test fronts: hand-worked examples, brute force on random data, the three
verdicts, and the pure helpers and output of scripts/make_val_test_example.py."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from copa_dash.core import generalization
from copa_dash.core._reference import generalization as reference
from copa_dash.core.errors import InvalidInputError
from copa_dash.core.generalization import (
    compare_methods,
    front_weakly_dominates,
    validation_test_fronts,
)

ROOT = Path(__file__).resolve().parents[2]


def test_hand_worked_example():
    # Validation: the first three rows are the front (row 3 is beaten by row 1).
    # Test: row 0 (0.2, 0.8) now dominates row 1 (0.6, 0.9); row 2 stays alone.
    val = [[0.1, 0.9], [0.5, 0.5], [0.9, 0.1], [0.8, 0.8]]
    test = [[0.2, 0.8], [0.6, 0.9], [0.9, 0.2], [0.1, 0.1]]
    res = validation_test_fronts(val, test, "min", ref=[1, 1])
    assert res.validation_mask.tolist() == [True, True, True, False]
    assert res.optimistic_mask.tolist() == [True, False, True, False]
    assert res.pessimistic_mask.tolist() == [False, True, True, False]
    # hv_val: (0.9 x 0.1) + (0.5 x 0.4) + (0.1 x 0.4) = 0.33.
    assert res.hv_val == pytest.approx(0.33)
    # optimistic: 0.8 x 0.2 + 0.1 x 0.6 = 0.22; pessimistic: 0.04 + 0.08 - 0.01 = 0.11.
    assert res.hv_opt == pytest.approx(0.22)
    assert res.hv_pess == pytest.approx(0.11)
    assert res.gap == pytest.approx(0.11)
    # Row 3 would be the best test point, but it was not on the validation front.
    np.testing.assert_array_equal(res.ref, [1, 1])


def test_maximised_objectives_equal_negated_minimisation():
    rng = np.random.default_rng(3)
    val, test = rng.random((40, 2)), rng.random((40, 2))
    as_max = validation_test_fronts(val, test, ["max", "max"], ref=[0, 0])
    as_min = validation_test_fronts(-val, -test, "min", ref=[0, 0])
    for name in ("validation_mask", "optimistic_mask", "pessimistic_mask"):
        np.testing.assert_array_equal(getattr(as_max, name), getattr(as_min, name))
    for name in ("hv_val", "hv_opt", "hv_pess", "gap"):
        assert getattr(as_max, name) == pytest.approx(getattr(as_min, name))


def test_default_reference_point_covers_val_and_test():
    val = np.array([[0.0, 1.0], [1.0, 0.0]])
    test = np.array([[0.5, 3.0], [2.0, 0.5]])
    res = validation_test_fronts(val, test, "min")
    # nadir over val and test (2, 3) plus 10% of the ranges (2, 3).
    np.testing.assert_allclose(res.ref, [2.2, 3.3])
    as_max = validation_test_fronts(-val, -test, "max")
    np.testing.assert_allclose(as_max.ref, [-2.2, -3.3])


@pytest.mark.parametrize("seed", range(10))
def test_matches_brute_force_on_random_integer_data(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 25)), int(rng.integers(2, 4))
    val = rng.integers(0, 5, size=(n, k)).astype(float)
    test = val + rng.integers(-1, 2, size=(n, k))  # ties and duplicates on both splits
    res = validation_test_fronts(val, test, "min")
    expected = reference.validation_test_fronts(val, test, res.ref)
    for name in ("validation_mask", "optimistic_mask", "pessimistic_mask"):
        np.testing.assert_array_equal(getattr(res, name), expected[name], err_msg=name)
    for name in ("hv_val", "hv_opt", "hv_pess", "gap"):
        assert getattr(res, name) == pytest.approx(expected[name], abs=1e-9), name
    assert res.gap >= 0
    assert res.optimistic_mask.any() and res.pessimistic_mask.any()
    assert not (res.optimistic_mask & ~res.validation_mask).any()


@pytest.mark.parametrize("seed", range(5))
def test_front_weakly_dominates_matches_twin(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=(rng.integers(1, 12), 3)).astype(float)
    b = rng.integers(0, 4, size=(rng.integers(1, 12), 3)).astype(float)
    np.testing.assert_array_equal(front_weakly_dominates(a, b),
                                  reference.front_weakly_dominates(a, b))


def _single(val, test):
    return validation_test_fronts([val], [test], "min", ref=[1, 1])


def test_verdicts_hand_worked():
    a = _single([0.1, 0.2], [0.1, 0.2])   # HV 0.9 * 0.8 = 0.72, gap 0
    b = _single([0.3, 0.3], [0.3, 0.4])   # HV 0.7 * 0.6 = 0.42, gap 0
    cmp = compare_methods(a, b, names=("forest", "linear"))
    assert cmp.hv_difference.winner == "A"
    assert cmp.hv_difference.sentence == (
        "forest is better: its pessimistic HV 0.7200 exceeds linear's optimistic HV 0.4200.")
    assert cmp.dominance.winner == "A"
    assert "every one of the 1 points of linear's optimistic front" in cmp.dominance.sentence
    assert cmp.gap.winner is None
    assert cmp.gap.sentence == "Equally robust: both approximation gaps are 0.0000."
    assert compare_methods(b, a).hv_difference.winner == "B"
    assert compare_methods(a, a).dominance.winner == "both"


def test_verdicts_undecided_and_gap():
    # A: two validation-front rows that swap on test -> gap; B: one middling point.
    a = validation_test_fronts([[0.2, 0.6], [0.6, 0.2]], [[0.2, 0.3], [0.4, 0.5]],
                               "min", ref=[1, 1])
    # A on test: (0.2, 0.3) dominates (0.4, 0.5): opt = {0}: 0.8 x 0.7 = 0.56;
    # pess = {1}: 0.6 x 0.5 = 0.30; gap 0.26.
    assert (a.hv_opt, a.hv_pess) == (pytest.approx(0.56), pytest.approx(0.30))
    b = _single([0.3, 0.4], [0.3, 0.4])   # 0.7 x 0.6 = 0.42, gap 0
    cmp = compare_methods(a, b)
    assert cmp.hv_difference.winner is None
    assert cmp.hv_difference.sentence == (
        "Undecided: the test HV ranges overlap (A [0.3000, 0.5600], B [0.4200, 0.4200]).")
    assert cmp.gap.winner == "B"
    assert "0.2600" in cmp.gap.sentence
    # B's point (0.3, 0.4) is not weakly dominated by A's pessimistic (0.4, 0.5), and
    # A's optimistic (0.2, 0.3) is not weakly dominated by B's (0.3, 0.4): neither.
    assert cmp.dominance.winner is None
    assert cmp.dominance.sentence.startswith("Neither front dominates: 1 of 1 points")


def test_hv_dominance_without_front_dominance():
    # A's pessimistic HV beats B's optimistic HV, yet B keeps an extreme point A misses
    # (the paper's Fig. 4 situation): HV dominance is necessary, not sufficient.
    a = _single([0.2, 0.2], [0.2, 0.2])                    # 0.64
    b = validation_test_fronts([[0.0, 0.95], [0.5, 0.5]], [[0.0, 0.95], [0.5, 0.5]],
                               "min", ref=[1, 1])          # 0.05 + 0.25 - 0.025 = 0.275
    cmp = compare_methods(a, b)
    assert cmp.hv_difference.winner == "A"
    assert cmp.dominance.winner is None


def test_errors():
    with pytest.raises(InvalidInputError, match="same shape"):
        validation_test_fronts([[1, 2]], [[1, 2], [3, 4]])
    with pytest.raises(InvalidInputError, match="'val_points'"):
        validation_test_fronts([[1, np.nan]], [[1, 2]])
    with pytest.raises(InvalidInputError, match="'ref'"):
        validation_test_fronts([[1, 2]], [[1, 2]], ref=[1, 2, 3])
    a = validation_test_fronts([[0.1, 0.2]], [[0.1, 0.2]], ref=[1, 1])
    b = validation_test_fronts([[0.1, 0.2]], [[0.1, 0.2]], ref=[2, 2])
    with pytest.raises(InvalidInputError, match="same reference point"):
        compare_methods(a, b)
    with pytest.raises(InvalidInputError, match="'b' must be the result"):
        compare_methods(a, "b")


def test_doctests():
    import doctest
    assert doctest.testmod(generalization).failed == 0


# --------------------------------------------------------------- the example script

@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location(
        "make_val_test_example", ROOT / "scripts" / "make_val_test_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_script_split_is_stratified_disjoint_and_fixed(script):
    labels = np.array([0] * 357 + [1] * 212)
    train, val, test = script.stratified_split(labels, seed=0)
    assert len(train) + len(val) + len(test) == 569
    assert len(np.intersect1d(train, val)) == len(np.intersect1d(val, test)) == 0
    assert abs(len(train) / 569 - 0.6) < 0.01 and abs(len(test) / 569 - 0.2) < 0.01
    assert abs(labels[val].mean() - 212 / 569) < 0.01
    again = script.stratified_split(labels, seed=0)
    assert all(np.array_equal(x, y) for x, y in zip((train, val, test), again))


def test_script_configs_stay_in_the_paper_space(script):
    rf = script.config_stream("random_forest", 0, 200)
    sgd = script.config_stream("sgd_linear", 0, 200)
    assert all(1 / 30 <= c["max_features"] <= 1 and 2 <= c["min_samples_split"] <= 20
               and 1 <= c["min_samples_leaf"] <= 20 for c in rf)
    assert all(1e-6 <= c["alpha"] <= 1e-2 and 1e-7 <= c["eta0"] <= 1e-1
               and c["penalty"] in ("l2", "l1", "elasticnet") for c in sgd)
    assert all(-7 <= c["pos_class_weight_exp"] <= 7 for c in rf + sgd)
    # A stream's first 50 configurations are the 50-configuration search.
    assert script.config_stream("random_forest", 0, 50) == rf[:50]
    assert script.config_stream("random_forest", 1, 5) != rf[:5]


def test_script_precision_recall_and_rows(script):
    assert script.precision_recall([1, 1, 0, 0, 1], [1, 0, 1, 0, 1]) == (2 / 3, 2 / 3)
    assert script.precision_recall([1, 0], [0, 0]) == (0.0, 0.0)
    evals = [{"config": {"pos_class_weight_exp": 0.5, "penalty": "l1", "alpha": 1e-3},
              "val": (0.5, 0.25), "test": (0.75, 1.0)}] * 5
    rows = script.budget_rows("sgd_linear", 2, evals, budgets=(2, 5))
    assert [r["budget"] for r in rows] == [2, 2, 5, 5, 5, 5, 5]
    assert rows[0]["id"] == "sgd-s2-b002-c000" and rows[0]["sgd_penalty"] == "l1"
    with pytest.raises(ValueError, match="budget"):
        script.budget_rows("sgd_linear", 2, evals, budgets=(10,))


def test_written_table_follows_the_protocol(script):
    pd = pytest.importorskip("pandas")
    path = ROOT / "datasets" / "breast-cancer-val-test.csv"
    assert path.stat().st_size < 1_000_000
    table = pd.read_csv(path)
    assert tuple(table.columns) == script.COLUMNS
    assert table["id"].is_unique
    assert set(table["model"]) == set(script.MODELS)
    assert sorted(table["budget"].unique()) == list(script.BUDGETS)
    metrics = ["val_precision", "val_recall", "test_precision", "test_recall"]
    assert table[metrics].min().min() >= 0 and table[metrics].max().max() <= 1
    for (model, seed), group in table.groupby(["model", "seed"]):
        by_budget = {b: g.sort_values("config_index") for b, g in group.groupby("budget")}
        assert {b: len(g) for b, g in by_budget.items()} == {b: b for b in script.BUDGETS}
        # Budget b is the first b configurations of budget 500's stream.
        for budget in script.BUDGETS:
            np.testing.assert_array_equal(by_budget[budget][metrics].to_numpy(),
                                          by_budget[500][metrics].to_numpy()[:budget])
        first = by_budget[200]
        res = validation_test_fronts(first[metrics[:2]].to_numpy(),
                                     first[metrics[2:]].to_numpy(), "max")
        assert 0 <= res.hv_pess <= res.hv_opt
